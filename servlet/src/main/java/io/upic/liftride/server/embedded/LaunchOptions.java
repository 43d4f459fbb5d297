package io.upic.liftride.server.embedded;

/**
 * The launcher's command line: {@code [--port N] [--host H] [--bare] [--help]}; immutable.
 *
 * @param host address to bind; default {@value EmbeddedServer#DEFAULT_HOST} (every interface, as on
 *     an EC2 instance the load client reaches from outside); 127.0.0.1 keeps the server local
 * @param port port to listen on; default {@value EmbeddedServer#DEFAULT_PORT}; 0 picks a free one
 * @param help whether to print the usage and exit
 * @param bare whether to also map the benchmark-only servlet at {@value EmbeddedServer#BARE_MAPPING}
 *     (answers 201 without reading the request; see {@link EmbeddedServer#BARE_MAPPING})
 */
public record LaunchOptions(String host, int port, boolean help, boolean bare) {
    public static final String USAGE = "usage: java -jar liftride-server.jar [--port N] [--host H] [--bare]\n"
            + "  --port N  port to listen on (default " + EmbeddedServer.DEFAULT_PORT + "; 0 picks a free port)\n"
            + "  --host H  address to bind (default " + EmbeddedServer.DEFAULT_HOST
            + ", every interface; 127.0.0.1 = this machine only)\n"
            + "  --bare    benchmark only: also answer 201 at " + EmbeddedServer.CONTEXT_PATH
            + EmbeddedServer.BARE_MAPPING
            + " without reading\n"
            + "            the request (Tomcat + an empty servlet: the floor to compare the real POST with)";

    /** Options without {@code --bare}, as before it existed. */
    public LaunchOptions(String host, int port, boolean help) {
        this(host, port, help, false);
    }

    /** Parses the arguments; throws IllegalArgumentException naming the argument that is wrong. */
    public static LaunchOptions parse(String... args) {
        String host = EmbeddedServer.DEFAULT_HOST;
        int port = EmbeddedServer.DEFAULT_PORT;
        boolean bare = false;
        boolean afterBare = false; // the previous argument was the flag --bare (not a value equal to it)
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            boolean isBare = false;
            switch (arg) {
                case "--help":
                case "-h":
                    return new LaunchOptions(host, port, true, bare);
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
                case "--bare":
                    bare = true;
                    isBare = true;
                    break;
                default:
                    throw new IllegalArgumentException(
                            (afterBare ? "--bare takes no value; " : "") + "unknown argument \"" + arg + "\"");
            }
            afterBare = isBare;
        }
        return new LaunchOptions(host, port, false, bare);
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
