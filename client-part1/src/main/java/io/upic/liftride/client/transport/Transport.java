package io.upic.liftride.client.transport;

import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.client.http.raw.RawRideSenderFactory;
import io.upic.liftride.client.http.sdk.SdkRideSenderFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The HTTP stacks a run can send rides with ({@code --transport}): a constant here plus a {@link
 * RideSenderFactory} each. Above {@code http}, so {@code http} never imports its stacks.
 */
public enum Transport {

    /** The generated swagger SDK ({@code SkiersApi} on OkHttp 4): the default, as the assignment asks. */
    SDK("sdk", SdkRideSenderFactory::new),

    /** A lean blocking HTTP/1.1 sender: what {@link #SDK} sends, at a fraction of the CPU; http only. */
    RAW("raw", RawRideSenderFactory::new);

    private final String cliName;
    private final Function<HttpSettings, RideSenderFactory> factory;

    Transport(String cliName, Function<HttpSettings, RideSenderFactory> factory) {
        this.cliName = cliName;
        this.factory = factory;
    }

    /** The name {@code --transport} accepts. */
    public String cliName() {
        return cliName;
    }

    /** Opens the shared part of this transport for one run; the caller closes it. */
    public RideSenderFactory open(HttpSettings settings) {
        return factory.apply(settings);
    }

    /** Comma-separated names, for messages. */
    public static String names() {
        return Arrays.stream(values()).map(Transport::cliName).collect(Collectors.joining(", "));
    }

    /**
     * The transport with this CLI name (case-insensitive).
     *
     * @throws IllegalArgumentException naming the allowed values if there is none
     */
    public static Transport named(String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        for (Transport t : values()) {
            if (t.cliName.equals(n)) {
                return t;
            }
        }
        throw new IllegalArgumentException("unknown transport " + name + ", expected one of " + names());
    }
}
