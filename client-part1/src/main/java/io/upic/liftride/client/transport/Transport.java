package io.upic.liftride.client.transport;

import io.upic.liftride.client.http.HttpSettings;
import io.upic.liftride.client.http.RideSenderFactory;
import io.upic.liftride.client.http.raw.RawRideSenderFactory;
import io.upic.liftride.client.http.sdk.SdkRideSenderFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The HTTP stacks a run can send rides with, selected by {@code --transport}. Adding one is one
 * constant here plus one {@link RideSenderFactory} class; the engine, retries and counting stay as
 * they are. A package of its own, above {@code http} and its stacks, so that {@code http} never imports
 * the stacks that implement it.
 */
public enum Transport {

    /** The generated swagger SDK ({@code SkiersApi} on OkHttp 4): the default, as the assignment asks. */
    SDK("sdk") {
        @Override
        public RideSenderFactory open(HttpSettings settings) {
            return new SdkRideSenderFactory(settings);
        }
    },

    /**
     * A lean blocking HTTP/1.1 sender: one kept-alive socket per worker, request bytes assembled by
     * hand, one write per request. Same requests, statuses, retries and counts as {@link #SDK}, at a
     * fraction of its CPU per request; plain http only. For measuring the server, not the SDK.
     */
    RAW("raw") {
        @Override
        public RideSenderFactory open(HttpSettings settings) {
            return new RawRideSenderFactory(settings);
        }
    };

    private final String cliName;

    Transport(String cliName) {
        this.cliName = cliName;
    }

    /** The name {@code --transport} accepts. */
    public String cliName() {
        return cliName;
    }

    /** Opens the shared part of this transport for one run; the caller closes it. */
    public abstract RideSenderFactory open(HttpSettings settings);

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
