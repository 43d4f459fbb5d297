package io.upic.liftride.server.embedded;

import static io.upic.liftride.flags.Flag.Parser.ownMessage;

import io.upic.liftride.flags.Flag;
import io.upic.liftride.flags.Flags;
import io.upic.liftride.flags.UsageException;
import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.operations.StoreSpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.commons.cli.CommandLine;

/**
 * The launcher's command line: one {@link Flag} each in {@link #FLAGS}, which also writes {@link #USAGE}.
 * Immutable. A null {@code store} leaves the choice to {@value StoreSpec#PROPERTY} or {@value StoreSpec#ENV};
 * {@code limits} holds only the {@link Limit} flags given.
 */
public record LaunchOptions(
        String host,
        int port,
        String managementHost,
        int managementPort,
        StoreSpec store,
        Map<Limit, Long> limits,
        boolean help) {
    public LaunchOptions {
        limits = Map.copyOf(limits);
    }

    static final Flag<Integer> PORT = Flag.integer(
            null, "port", "N", "port to listen on (0 picks a free port)", 0, 65535, EmbeddedServer.DEFAULT_PORT);
    static final Flag<String> HOST = host(
            "host",
            EmbeddedServer.DEFAULT_HOST,
            "address to bind (default " + EmbeddedServer.DEFAULT_HOST
                    + ", every interface; 127.0.0.1 = this machine only)");
    static final Flag<Integer> MANAGEMENT_PORT = Flag.integer(
            null,
            "management-port",
            "N",
            "port for /metrics, /admin/* and the store's details (0 picks a free port)",
            0,
            65535,
            EmbeddedServer.DEFAULT_MANAGEMENT_PORT);
    static final Flag<String> MANAGEMENT_HOST = host(
            "management-host",
            EmbeddedServer.DEFAULT_MANAGEMENT_HOST,
            "address the management port binds (default " + EmbeddedServer.DEFAULT_MANAGEMENT_HOST
                    + ", this machine only)");
    /** StoreSpec's message, which hides a password, after "--". */
    static final Flag<StoreSpec> STORE = Flag.of(
            null,
            "store",
            "S",
            StoreSpec.FORMS,
            null,
            "where rides are kept: " + StoreSpec.FORMS + " (default " + StoreSpec.DEFAULT + ", or the system property "
                    + StoreSpec.PROPERTY + ", or the environment variable " + StoreSpec.ENV
                    + "); the Redis password may come from the environment variable " + StoreSpec.PASSWORD_ENV
                    + " instead",
            ownMessage("--", StoreSpec::parse));

    /** One flag per limit, whose message names its property and environment variable too. */
    private static final Map<Limit, Flag<Long>> LIMITS = Arrays.stream(Limit.values())
            .collect(Collectors.toMap(
                    limit -> limit, LaunchOptions::flag, (a, b) -> a, () -> new EnumMap<>(Limit.class)));

    /** The flags, in the order the help lists them. */
    static final List<Flag<?>> FLAGS = flags();

    public static final String USAGE = Flags.usage(
                    "java -jar liftride-server.jar [--port N] [--host H] [--store S] [--max-... N]", null, FLAGS, null)
            .stripTrailing();

    /**
     * Parses the arguments.
     *
     * @throws UsageException naming the argument that is wrong, in one line
     */
    public static LaunchOptions parse(String... args) throws UsageException {
        CommandLine line = Flags.parseOnlyFlags(args, FLAGS);
        if (Flags.HELP.valueIn(line)) {
            return new LaunchOptions(null, 0, null, 0, null, Map.of(), true);
        }
        Map<Limit, Long> limits = new EnumMap<>(Limit.class);
        for (Map.Entry<Limit, Flag<Long>> limit : LIMITS.entrySet()) {
            Long value = limit.getValue().valueIn(line);
            if (value != null) {
                limits.put(limit.getKey(), value);
            }
        }
        int port = PORT.valueIn(line);
        int managementPort = MANAGEMENT_PORT.valueIn(line);
        if (managementPort != 0 && managementPort == port) {
            throw new UsageException("--management-port must differ from --port, got " + port + " for both");
        }
        return new LaunchOptions(
                HOST.valueIn(line),
                port,
                MANAGEMENT_HOST.valueIn(line),
                managementPort,
                STORE.valueIn(line),
                limits,
                false);
    }

    private static Flag<String> host(String name, String defaultValue, String help) {
        return Flag.of(null, name, "H", "an address to bind", defaultValue, help, text -> {
                    if (text.isBlank()) {
                        throw new IllegalArgumentException("blank");
                    }
                    return text;
                })
                .withExplainsRejection(true);
    }

    private static Flag<Long> flag(Limit limit) {
        String help = "at most N " + limit.noun() + " (default " + limit.defaultValue() + ", or " + limit.property()
                + ", or " + limit.env() + ")";
        return Flag.of(null, limit.flag(), "N", null, null, help, ownMessage("", limit::parse));
    }

    private static List<Flag<?>> flags() {
        List<Flag<?>> flags = new ArrayList<>(List.of(PORT, HOST, MANAGEMENT_PORT, MANAGEMENT_HOST, STORE));
        flags.addAll(LIMITS.values());
        flags.add(Flags.HELP);
        return List.copyOf(flags);
    }
}
