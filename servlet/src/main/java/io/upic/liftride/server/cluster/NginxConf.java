package io.upic.liftride.server.cluster;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The nginx configuration of the local cluster's front: round robin over the LiftRide servers with
 * kept-alive upstream connections, a POST never re-sent once it reached a server, and nginx's own
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
        errors.put(413, "request body too large: the API accepts at most 4096 bytes");
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
    ChildProcess writeAndPrepare(Spawner spawner, PrintStream log) {
        Path conf = dir.resolve("nginx.conf");
        Path errorLog = dir.resolve("error.log");
        try {
            Files.createDirectories(dir);
            Files.writeString(conf, render());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + conf, e);
        }
        List<String> command = List.of(
                Executables.require("nginx", "nginx", log),
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
        StringBuilder upstreams = new StringBuilder();
        for (int port : serverPorts) {
            upstreams.append("        server 127.0.0.1:").append(port).append(" max_fails=1 fail_timeout=2s;\n");
        }
        StringBuilder errorPages = new StringBuilder();
        OWN_ERRORS.keySet().stream()
                .sorted()
                .forEach(status -> errorPages
                        .append("        error_page ")
                        .append(status)
                        .append(" /liftride-lb-error/")
                        .append(status)
                        .append(";\n        location = /liftride-lb-error/")
                        .append(status)
                        .append(" { internal; default_type application/json; return ")
                        .append(status == 494 ? 400 : status)
                        .append(" '{\"message\":\"")
                        .append(OWN_ERRORS.get(status))
                        .append("\"}'; }\n"));
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
                }
                http {
                    access_log off;
                    server_tokens off;
                    client_body_temp_path %s;
                    proxy_temp_path %s;
                    fastcgi_temp_path %s;
                    uwsgi_temp_path %s;
                    scgi_temp_path %s;

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

                    server {
                        listen 127.0.0.1:%d backlog=1024;
                        # the load client keeps its connections for the whole run, as Tomcat lets it
                        keepalive_requests 1000000;
                        keepalive_timeout 75s;
                        client_max_body_size 64k;

                        location / {
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
                        }

                        # nginx's own errors (no server answered, body too large, malformed request) in the API's
                        # format, {"message": ...}, instead of nginx's HTML pages. The servers' errors are not
                        # intercepted (proxy_intercept_errors off).
                %s    }
                }
                """.formatted(
                        serverPorts.size(),
                        dir.resolve("nginx.pid"),
                        dir.resolve("error.log"),
                        dir.resolve("client_body"),
                        dir.resolve("proxy"),
                        dir.resolve("fastcgi"),
                        dir.resolve("uwsgi"),
                        dir.resolve("scgi"),
                        upstreams.toString().stripTrailing(),
                        frontPort,
                        READ_TIMEOUT_SECONDS,
                        READ_TIMEOUT_SECONDS,
                        errorPages);
    }
}
