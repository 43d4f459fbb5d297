package io.upic.liftride.server.embedded;

import io.upic.liftride.server.limits.Limit;
import io.upic.liftride.server.store.StoreSpec;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.EnumMap;
import java.util.Map;
import org.apache.commons.cli.CommandLine;
import org.apache.commons.cli.DefaultParser;
import org.apache.commons.cli.HelpFormatter;
import org.apache.commons.cli.MissingArgumentException;
import org.apache.commons.cli.Option;
import org.apache.commons.cli.Options;
import org.apache.commons.cli.ParseException;
import org.apache.commons.cli.UnrecognizedOptionException;

/**
 * The launcher's command line, {@code [--port N] [--host H] [--store S] [--help]}, read with Apache
 * Commons CLI;
 * immutable. Every flag is declared once, in {@link #OPTIONS}, which also writes {@link #USAGE}.
 *
 * @param host address to bind; default {@value EmbeddedServer#DEFAULT_HOST} (every interface, as on
 *     an EC2 instance the load client reaches from outside); 127.0.0.1 keeps the server local
 * @param port port to listen on; default {@value EmbeddedServer#DEFAULT_PORT}; 0 picks a free one
 * @param store {@code --store}: where rides are kept; null when not given, so the system property
 *     {@value StoreSpec#PROPERTY} or the environment variable {@value StoreSpec#ENV} decides (else memory)
 * @param limits the {@link Limit} flags given ({@code --max-resorts N}...); the others come from the
 *     system properties, the environment or the defaults
 * @param help whether to print the usage and exit
 */
public record LaunchOptions(String host, int port, StoreSpec store, Map<Limit, Long> limits, boolean help) {
    public LaunchOptions {
        limits = Map.copyOf(limits);
    }

    /** Options without limit flags. */
    public LaunchOptions(String host, int port, StoreSpec store, boolean help) {
        this(host, port, store, Map.of(), help);
    }

    /** The flags, in the order the help lists them. */
    private static final Options OPTIONS = withLimits(new Options()
            .addOption(valued(
                    "port",
                    "N",
                    "port to listen on (default " + EmbeddedServer.DEFAULT_PORT + "; 0 picks a free port)"))
            .addOption(valued(
                    "host",
                    "H",
                    "address to bind (default " + EmbeddedServer.DEFAULT_HOST
                            + ", every interface; 127.0.0.1 = this machine only)"))
            .addOption(valued(
                    "store",
                    "S",
                    "where rides are kept: " + StoreSpec.FORMS + " (default " + StoreSpec.DEFAULT
                            + ", or the system property " + StoreSpec.PROPERTY + ", or the environment variable "
                            + StoreSpec.ENV + "); the Redis password may come from the environment variable "
                            + StoreSpec.PASSWORD_ENV + " instead"))
            .addOption(Option.builder("h")
                    .longOpt("help")
                    .desc("print this help and exit")
                    .build()));

    public static final String USAGE = usage();

    /** Parses the arguments; throws IllegalArgumentException naming the argument that is wrong, in one line. */
    public static LaunchOptions parse(String... args) {
        CommandLine line;
        try {
            line = DefaultParser.builder()
                    .setAllowPartialMatching(false)
                    .build()
                    .parse(OPTIONS, args);
        } catch (UnrecognizedOptionException e) {
            throw unknown(e.getOption());
        } catch (MissingArgumentException e) {
            throw new IllegalArgumentException("--" + e.getOption().getLongOpt() + " needs a value");
        } catch (ParseException e) {
            throw new IllegalArgumentException(e.getMessage());
        }
        if (line.hasOption("help")) {
            return new LaunchOptions(EmbeddedServer.DEFAULT_HOST, EmbeddedServer.DEFAULT_PORT, null, true);
        }
        if (!line.getArgList().isEmpty()) {
            throw unknown(line.getArgList().get(0));
        }
        String host = line.getOptionValue("host", EmbeddedServer.DEFAULT_HOST);
        if (host.isBlank()) {
            throw new IllegalArgumentException("--host must be an address to bind, got \"" + host + "\"");
        }
        int port = line.hasOption("port") ? parsePort(line.getOptionValue("port")) : EmbeddedServer.DEFAULT_PORT;
        StoreSpec store = null;
        if (line.hasOption("store")) {
            try {
                store = StoreSpec.parse(line.getOptionValue("store"));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--" + e.getMessage());
            }
        }
        Map<Limit, Long> limits = new EnumMap<>(Limit.class);
        for (Limit limit : Limit.values()) {
            if (line.hasOption(limit.flag())) {
                limits.put(limit, limit.parse(line.getOptionValue(limit.flag())));
            }
        }
        return new LaunchOptions(host, port, store, limits, false);
    }

    private static Options withLimits(Options options) {
        for (Limit limit : Limit.values()) {
            options.addOption(valued(
                    limit.flag(),
                    "N",
                    "at most N " + limit.noun() + " (default " + limit.defaultValue() + ", or " + limit.property()
                            + ", or " + limit.env() + ")"));
        }
        return options;
    }

    private static Option valued(String name, String argName, String description) {
        return Option.builder()
                .longOpt(name)
                .hasArg()
                .argName(argName)
                .desc(description)
                .build();
    }

    private static IllegalArgumentException unknown(String argument) {
        return new IllegalArgumentException("unknown argument \"" + argument + "\"");
    }

    private static int parsePort(String text) {
        int port;
        try {
            port = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--port must be an integer in 0..65535, got \"" + text + "\"");
        }
        return port;
    }

    private static String usage() {
        StringWriter text = new StringWriter();
        HelpFormatter formatter = new HelpFormatter();
        formatter.setOptionComparator(null); // declaration order
        formatter.printHelp(
                new PrintWriter(text, true),
                100,
                "java -jar liftride-server.jar [--port N] [--host H] [--store S] [--max-... N]",
                null,
                OPTIONS,
                2,
                2,
                null,
                false);
        return text.toString().stripTrailing();
    }
}
