package io.upic.liftride.cluster;

import io.upic.liftride.testkit.ChildProcess;
import io.upic.liftride.testkit.Programs;
import io.upic.liftride.testkit.Spawner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The nginx configuration of the local cluster's front: round robin over the LiftRide servers with
 * kept-alive upstream connections, whole requests buffered before they reach a server (so a slow client
 * never holds a server's request thread), a POST never re-sent once it reached a server, and nginx's own
 * errors as JSON {@code {"message": ...}}. A pure function of its inputs; the text explains itself in
 * comments, since users read the generated file. Immutable.
 *
 * @param frontPort the port nginx listens on (127.0.0.1)
 * @param serverPorts the LiftRide servers' ports (127.0.0.1), at least one
 * @param dir nginx's directory in the run directory: pid file, error log, temp paths
 */
public record NginxConf(int frontPort, List<Integer> serverPorts, Path dir) {
    /** How long nginx waits for a server's answer: longer than the server's own bound on a slow Redis. */
    static final int READ_TIMEOUT_SECONDS = 15;

    /** How long a client may pause between two reads of its header or body, or two writes of its answer. */
    static final int CLIENT_TIMEOUT_SECONDS = 10;

    /** A client connection's kernel send buffer at nginx: about a dozen small answers (Linux doubles it). */
    static final int SEND_BUFFER_BYTES = 4096;

    /** A client connection's kernel receive buffer at nginx: more than the API's largest request (12 KiB). */
    static final int RECEIVE_BUFFER_BYTES = 16384;

    /** The API's largest request body (the server's own limit, Rules.MAX_BODY_BYTES): nginx refuses more. */
    static final int MAX_BODY_BYTES = 4096;

    /** The JSON bodies of the errors nginx answers itself (the servers' own errors pass through as they are). */
    static final Map<Integer, String> OWN_ERRORS = ownErrors();

    public NginxConf {
        serverPorts = List.copyOf(serverPorts);
        if (serverPorts.isEmpty()) {
            throw new IllegalArgumentException("serverPorts is empty: nginx needs at least one server");
        }
        if (frontPort < 1 || frontPort > 65535) {
            throw new IllegalArgumentException("frontPort must be in 1..65535, got " + frontPort);
        }
    }

    private static Map<Integer, String> ownErrors() {
        String retry = " A POST that may have reached a server is not re-sent by the load balancer:"
                + " retry it with the same Idempotency-Key.";
        Map<Integer, String> errors = new LinkedHashMap<>();
        errors.put(400, "malformed HTTP request (refused by the load balancer)");
        errors.put(404, "no route (refused by the load balancer)");
        errors.put(408, "the request did not arrive in time (load balancer)");
        errors.put(413, "request body too large: the API accepts at most " + MAX_BODY_BYTES + " bytes");
        errors.put(414, "request line too long (load balancer)");
        errors.put(494, "request headers too large (load balancer)");
        errors.put(500, "internal error in the load balancer");
        errors.put(
                502,
                "no LiftRide server answered: the server was unreachable or closed the connection"
                        + " without an answer." + retry);
        errors.put(503, "no LiftRide server is available (load balancer)." + retry);
        errors.put(
                504,
                "the LiftRide server did not answer within " + READ_TIMEOUT_SECONDS + " s (load balancer)." + retry);
        return Map.copyOf(errors);
    }

    /**
     * Writes the configuration to {@code dir}/nginx.conf and returns nginx's process, not started yet: one
     * process in the foreground, its errors in {@code dir}/error.log.
     */
    ChildProcess writeAndPrepare(Spawner spawner) {
        Path conf = dir.resolve("nginx.conf");
        Path errorLog = dir.resolve("error.log");
        try {
            Files.createDirectories(dir);
            Files.writeString(conf, render());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + conf, e);
        }
        List<String> command = List.of(
                Programs.require("nginx", "nginx"),
                "-p",
                dir.toString(),
                "-e", // nginx 1.19.5+: its own start-up errors go here too, not to /var/log/nginx
                errorLog.toString(),
                "-c",
                conf.toString());
        return new ChildProcess("nginx", command, errorLog, spawner);
    }

    /** The configuration file's text. */
    public String render() {
        return String.join("", process(), "http {\n", paths(), upstream(), server(), "}\n");
    }

    private String process() {
        return """
                # LiftRide local cluster: nginx in front of %d LiftRide server(s). Generated by LocalCluster.
                #
                # One process (master_process off): the launcher starts it under a parent-death signal, and only a
                # single process dies with the launcher if that is killed (nginx's workers would outlive their
                # master). On a real load balancer leave the master on and use worker_processes auto.
                daemon off;
                master_process off;
                pid %s;
                error_log %s warn;
                worker_rlimit_nofile 16384;
                events {
                    worker_connections 8192;
                    # every waiting connection accepted in one turn: when hundreds reconnect at once (clients
                    # that nginx timed out), a new client does not wait one event-loop turn behind each of them
                    multi_accept on;
                }
                """.formatted(serverPorts.size(), dir.resolve("nginx.pid"), dir.resolve("error.log"));
    }

    private String paths() {
        StringBuilder text = new StringBuilder("    access_log off;\n    server_tokens off;\n");
        for (String temp : List.of("client_body", "proxy", "fastcgi", "uwsgi", "scgi")) {
            text.append("    ")
                    .append(temp)
                    .append("_temp_path ")
                    .append(dir.resolve(temp))
                    .append(";\n");
        }
        return text.toString();
    }

    private String upstream() {
        StringBuilder servers = new StringBuilder();
        for (int port : serverPorts) {
            servers.append("        server 127.0.0.1:").append(port).append(" max_fails=1 fail_timeout=2s;\n");
        }
        return """

                    upstream liftride {
                        # round robin (nginx's default); a server that refuses a connection or fails a request is
                        # skipped for 2 s, then tried again (so a restarted server is back in rotation quickly).
                        # Open-source nginx checks health passively only; a load balancer with active checks (ALB,
                        # nginx plus, HAProxy) should poll GET /liftride/health/ready. A stopping server drains so
                        # that passive checks suffice: its answers close their connections, then it refuses new
                        # ones, which nginx retries on the next server even for a POST (it was never sent).
                %s
                        # Idle connections kept open to the servers, so a request does not pay a TCP handshake.
                        # nginx closes an idle one after 50 s, before Tomcat would (keepAliveTimeout 60 s): a request
                        # never goes out on a connection the server is closing at that moment.
                        keepalive 256;
                        keepalive_timeout 50s;
                        keepalive_requests 1000000;
                    }

                """.formatted(servers.toString().stripTrailing());
    }

    private String server() {
        return """
                    server {
                        # A client that pipelines requests and never reads gets answers only until they fill the
                        # kernel's send buffer: sndbuf caps it (Linux grows its own to 4 MB, thousands of answers,
                        # each one a request a server must serve), rcvbuf caps the requests it parks unread.
                        listen 127.0.0.1:%d backlog=1024 sndbuf=%d rcvbuf=%d;
                        # the load client keeps its connections for the whole run, as Tomcat lets it; an idle
                        # connection costs nginx a few KiB and no server anything
                        keepalive_requests 1000000;
                        keepalive_timeout 75s;
                %s
                        location / {
                %s        }

                        # nginx's own errors (no server answered, body too large, malformed request) in the API's
                        # format, {"message": ...}, instead of nginx's HTML pages. The servers' errors are not
                        # intercepted (proxy_intercept_errors off).
                %s    }
                """.formatted(frontPort, SEND_BUFFER_BYTES, RECEIVE_BUFFER_BYTES, slowClients(), proxy(), errorPages());
    }

    /** What keeps slow or stalled clients away from the servers' request threads. */
    private static String slowClients() {
        return """
                        # Slow clients stop here, never at a server: nginx reads the whole request body before it
                        # opens a connection to a server (proxy_request_buffering on), so a server's request thread
                        # only ever reads a complete request at loopback speed; and it takes the whole response at
                        # once (proxy_buffering on), so a client slow to read holds no server connection either.
                        # A client trickling bytes costs nginx a connection in its event loop, not a thread.
                        # Each timeout is between two successive reads or writes; past it nginx answers 408 (header,
                        # body) or closes the connection (response), and frees it at once (reset_timedout_connection).
                        client_header_timeout %ds;
                        client_body_timeout %ds;
                        send_timeout %ds;
                        reset_timedout_connection on;
                        # the API's largest body: larger ones get nginx's own 413, never reach a server, and the
                        # body buffer holds any allowed body in memory (no temp file)
                        client_max_body_size %d;
                        client_body_buffer_size %d;
                        proxy_request_buffering on;
                        proxy_buffering on;
                """.formatted(
                CLIENT_TIMEOUT_SECONDS, CLIENT_TIMEOUT_SECONDS, CLIENT_TIMEOUT_SECONDS, MAX_BODY_BYTES, MAX_BODY_BYTES);
    }

    private static String proxy() {
        return """
                            proxy_pass http://liftride;
                            # HTTP/1.1 and no "Connection: close" towards the servers: the upstream keepalive above
                            proxy_http_version 1.1;
                            proxy_set_header Connection "";
                            proxy_set_header Host $host;
                            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                            proxy_connect_timeout 2s;
                            proxy_send_timeout %ds;
                            proxy_read_timeout %ds;
                            # What nginx retries on the next server (proxy_next_upstream, here its default made
                            # explicit): "error" (connection refused or reset, or closed before a response header)
                            # and "timeout" (connect, send or read). Since nginx 1.9.13 a POST, PATCH or LOCK is
                            # retried only if it was never sent to a server (it failed while connecting); once a
                            # server received it, nginx answers 502 (or 504) and does not re-send it, because that
                            # server may have stored the ride before dying. We do not add "non_idempotent": the
                            # client retries, with the same Idempotency-Key, and the store applies a key once. GETs
                            # are retried on the next server after any error or timeout. A server's own answers,
                            # 503 (Redis unavailable, with Retry-After) included, are passed through as they are:
                            # another server shares the same Redis, so re-sending would not help.
                            proxy_next_upstream error timeout;
                """.formatted(READ_TIMEOUT_SECONDS, READ_TIMEOUT_SECONDS);
    }

    private static String errorPages() {
        StringBuilder pages = new StringBuilder();
        OWN_ERRORS.keySet().stream()
                .sorted()
                .forEach(status -> pages.append(
                        """
                        error_page %d /liftride-lb-error/%d;
                        location = /liftride-lb-error/%d {
                            internal; default_type application/json; return %d '{"message":"%s"}';
                        }
                """.formatted(status, status, status, status == 494 ? 400 : status, OWN_ERRORS.get(status))));
        return pages.toString();
    }
}
