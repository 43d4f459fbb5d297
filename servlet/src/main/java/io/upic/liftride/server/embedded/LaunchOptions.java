package io.upic.liftride.server.embedded;

/**
 * The launcher's command line: {@code [--port N] [--host H] [--help]}; immutable.
 *
 * @param host address to bind; default {@value EmbeddedServer#DEFAULT_HOST} (every interface, as on
 *     an EC2 instance the load client reaches from outside); 127.0.0.1 keeps the server local
 * @param port port to listen on; default {@value EmbeddedServer#DEFAULT_PORT}; 0 picks a free one
 * @param help whether to print the usage and exit
 */
public record LaunchOptions(String host, int port, boolean help) {
    public static final String USAGE = "usage: java -jar liftride-server.jar [--port N] [--host H]\n"
            + "  --port N  port to listen on (default " + EmbeddedServer.DEFAULT_PORT + "; 0 picks a free port)\n"
            + "  --host H  address to bind (default " + EmbeddedServer.DEFAULT_HOST
            + ", every interface; 127.0.0.1 = this machine only)";

    /** Parses the arguments; throws IllegalArgumentException naming the argument that is wrong. */
    public static LaunchOptions parse(String... args) {
        String host = EmbeddedServer.DEFAULT_HOST;
        int port = EmbeddedServer.DEFAULT_PORT;
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            switch (arg) {
                case "--help":
                case "-h":
                    return new LaunchOptions(host, port, true);
                case "--host":
                    host = value(args, ++i, arg);
                    if (host.isBlank()) {
                        throw new IllegalArgumentException("--host must be an address to bind, got \"" + host + "\"");
                    }
                    break;
                case "--port":
                    String text = value(args, ++i, arg);
                    port = parsePort(text);
                    break;
                default:
                    throw new IllegalArgumentException("unknown argument \"" + arg + "\"");
            }
        }
        return new LaunchOptions(host, port, false);
    }

    private static String value(String[] args, int index, String option) {
        if (index >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[index];
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
}
