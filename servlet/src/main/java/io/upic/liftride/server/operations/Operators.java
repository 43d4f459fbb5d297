package io.upic.liftride.server.operations;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import javax.servlet.http.HttpServletRequest;

/**
 * Who may see operations data ({@code /metrics}, {@code /admin/*}, the store's address and user in
 * {@code /statistics}, the checks behind {@code /health/ready}): a request that comes straight from a
 * loopback or private address (10/8, 172.16/12, 192.168/16, 169.254/16, fc00::/7, fe80::/10), the
 * operator's own machine or network (Prometheus, a load balancer's health check, curl on the
 * instance). A request that carries a proxy's forwarding header ({@code X-Forwarded-For},
 * {@code Forwarded}, {@code X-Real-IP}) is never an operator's, whatever its address: behind nginx or
 * an ALB every client arrives from a private address, and the proxy adds the header. Stateless.
 */
public final class Operators {
    private static final List<String> FORWARDING_HEADERS = List.of("X-Forwarded-For", "Forwarded", "X-Real-IP");

    private Operators() {}

    /** Whether {@code request} came straight from a loopback or private address, through no proxy. */
    public static boolean asked(HttpServletRequest request) {
        for (String header : FORWARDING_HEADERS) {
            if (request.getHeader(header) != null) {
                return false;
            }
        }
        return isPrivate(request.getRemoteAddr());
    }

    /** Whether {@code address} (an IP literal) is loopback, private, link-local or IPv6 unique-local. */
    static boolean isPrivate(String address) {
        if (address == null || address.isEmpty() || !isIpLiteral(address)) {
            return false;
        }
        try {
            InetAddress ip = InetAddress.getByName(address); // a literal: no name lookup
            byte[] bytes = ip.getAddress();
            return ip.isLoopbackAddress()
                    || ip.isSiteLocalAddress()
                    || ip.isLinkLocalAddress()
                    || (bytes.length == 16 && (bytes[0] & 0xfe) == 0xfc);
        } catch (UnknownHostException notAnAddress) {
            return false;
        }
    }

    private static boolean isIpLiteral(String address) {
        for (int i = 0; i < address.length(); i++) {
            char c = address.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' || c == '.' || c == ':')) {
                return false;
            }
        }
        return true;
    }
}
