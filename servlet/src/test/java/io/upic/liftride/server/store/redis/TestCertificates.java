package io.upic.liftride.server.store.redis;

import io.upic.liftride.cluster.Programs;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A private certificate authority and a server certificate it signed for 127.0.0.1, made with openssl
 * (Debian's, installed when missing), as a TLS Redis on loopback needs, the CA also in a PKCS12 trust
 * store for a JVM started with {@code -Djavax.net.ssl.trustStore}. Valid for one day. Immutable once made;
 * the files live in {@link #dir()}, which the caller deletes.
 *
 * @param dir where {@code ca.crt}, {@code server.crt}, {@code server.key} and {@code trust.p12} are
 */
public record TestCertificates(Path dir) {
    /** The trust store's password. */
    public static final String TRUST_STORE_PASSWORD = "changeit";

    /** Makes the CA, the server certificate and the trust store in {@code dir} (created if needed). */
    public static TestCertificates make(Path dir) {
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("san.ext"), "subjectAltName=IP:127.0.0.1\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write in " + dir, e);
        }
        TestCertificates c = new TestCertificates(dir);
        String openssl = Programs.require("openssl", "openssl");
        String days = "1";
        run(
                openssl,
                "req",
                "-x509",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-days",
                days,
                "-subj",
                "/CN=LiftRide test CA",
                "-keyout",
                dir.resolve("ca.key").toString(),
                "-out",
                c.caCert().toString());
        run(
                openssl,
                "req",
                "-newkey",
                "rsa:2048",
                "-nodes",
                "-subj",
                "/CN=127.0.0.1",
                "-keyout",
                c.serverKey().toString(),
                "-out",
                dir.resolve("server.csr").toString());
        run(
                openssl,
                "x509",
                "-req",
                "-days",
                days,
                "-in",
                dir.resolve("server.csr").toString(),
                "-CA",
                c.caCert().toString(),
                "-CAkey",
                dir.resolve("ca.key").toString(),
                "-CAcreateserial",
                "-extfile",
                dir.resolve("san.ext").toString(),
                "-out",
                c.serverCert().toString());
        run("chmod", "644", c.serverKey().toString()); // redis-server may run as another user
        run(
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-importcert",
                "-noprompt",
                "-alias",
                "liftride-test-ca",
                "-file",
                c.caCert().toString(),
                "-keystore",
                c.trustStore().toString(),
                "-storetype",
                "PKCS12",
                "-storepass",
                TRUST_STORE_PASSWORD);
        return c;
    }

    public Path caCert() {
        return dir.resolve("ca.crt");
    }

    public Path serverCert() {
        return dir.resolve("server.crt");
    }

    public Path serverKey() {
        return dir.resolve("server.key");
    }

    /** The CA in a PKCS12 store, password {@link #TRUST_STORE_PASSWORD}. */
    public Path trustStore() {
        return dir.resolve("trust.p12");
    }

    /**
     * The redis-server arguments that serve TLS on {@code tlsPort} with this certificate; clients need none
     * of their own ({@code tls-auth-clients no}), as on ElastiCache.
     */
    public List<String> redisArgs(int tlsPort) {
        return List.of(
                "--tls-port", Integer.toString(tlsPort),
                "--tls-cert-file", serverCert().toString(),
                "--tls-key-file", serverKey().toString(),
                "--tls-ca-cert-file", caCert().toString(),
                "--tls-auth-clients", "no");
    }

    /**
     * Makes this JVM's default SSL context trust the CA. A JVM reads {@code javax.net.ssl.trustStore} once,
     * when something first asks for the default context, and tests share a JVM where an earlier class may
     * have done so; so in-process tests install the context directly.
     */
    public void trustInThisJvm() {
        try (InputStream in = Files.newInputStream(trustStore())) {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, TRUST_STORE_PASSWORD.toCharArray());
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(store);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            SSLContext.setDefault(context);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust the test CA in " + trustStore() + ": " + e, e);
        }
    }

    private static void run(String... command) {
        Programs.Result result = Programs.exec(Duration.ofSeconds(30), command);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + result.output());
        }
    }
}
