package io.upic.liftride.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free TCP ports on loopback for engines that cannot pick their own. Stateless. */
public final class FreePorts {
    private FreePorts() {}

    /** A port nothing listens on right now (it may be taken before the caller binds it: rare on loopback). */
    public static int next() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
