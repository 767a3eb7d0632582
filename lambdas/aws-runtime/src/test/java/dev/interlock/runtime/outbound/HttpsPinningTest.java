package dev.interlock.runtime.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.interlock.model.net.HostResolver;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.store.Backoff;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pinned HTTPS request goes to the checked IP address yet is verified for the configured name: the server's
 * certificate names only {@code jobs.example.test} (no IP), so the call can only succeed if the name travels as
 * the TLS server name and the certificate is checked against it.
 */
class HttpsPinningTest {

    private static final char[] PASSWORD = "changeit".toCharArray();
    private static HttpsServer server;
    private static TrustManagerFactory clientTrust;
    private static final List<String> hosts = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void startServer(@TempDir Path dir) throws Exception {
        Path keystore = dir.resolve("server.p12");
        String keytool =
                Path.of(System.getProperty("java.home"), "bin", "keytool").toString();
        Process p = new ProcessBuilder(
                        keytool,
                        "-genkeypair",
                        "-alias",
                        "server",
                        "-keyalg",
                        "EC",
                        "-groupname",
                        "secp256r1",
                        "-dname",
                        "CN=jobs.example.test",
                        "-ext",
                        "SAN=dns:jobs.example.test",
                        "-validity",
                        "2",
                        "-storetype",
                        "PKCS12",
                        "-keystore",
                        keystore.toString(),
                        "-storepass",
                        "changeit",
                        "-keypass",
                        "changeit")
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();

        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            keys.load(in, PASSWORD);
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, PASSWORD);
        SSLContext serverTls = SSLContext.getInstance("TLS");
        serverTls.init(kmf.getKeyManagers(), null, null);

        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("server", keys.getCertificate("server"));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        clientTrust = tmf;

        server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serverTls));
        server.createContext("/", exchange -> {
            hosts.add(exchange.getRequestHeaders().getFirst("Host"));
            byte[] body = "secure".getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
    }

    @AfterAll
    static void stopServer() {
        server.stop(0);
    }

    private static GuardedHttp http() {
        HostResolver toLoopback = host -> List.of(InetAddress.getByName("127.0.0.1"));
        return new GuardedHttp(
                new UrlGuard(true, toLoopback),
                Clock.systemUTC(),
                new Backoff(1, Duration.ZERO, Duration.ZERO, () -> 0, d -> {}),
                () -> {
                    try {
                        SSLContext context = SSLContext.getInstance("TLS");
                        context.init(null, clientTrust.getTrustManagers(), null);
                        return context;
                    } catch (java.security.GeneralSecurityException e) {
                        throw new IllegalStateException(e);
                    }
                });
    }

    @Test
    void theCertificateIsVerifiedForTheConfiguredNameWhileTheConnectionGoesToTheCheckedAddress() throws Exception {
        int port = server.getAddress().getPort();
        try (GuardedHttp http = http()) {
            OutboundResponse response =
                    http.send(OutboundRequest.get(URI.create("https://jobs.example.test:" + port + "/status")));
            assertThat(response.body()).isEqualTo("secure");
        }
        assertThat(hosts).contains("jobs.example.test:" + port);
    }

    @Test
    void aCertificateForAnotherNameIsRefusedAndNotRetried() throws Exception {
        int port = server.getAddress().getPort();
        try (GuardedHttp http = http()) {
            // A verified session with the right name to the same address first: it must not be resumed for the
            // other name (the JDK caches sessions by address, so each name has its own TLS context).
            assertThat(http.send(OutboundRequest.get(URI.create("https://jobs.example.test:" + port + "/")))
                            .status())
                    .isEqualTo(200);
            assertThatThrownBy(() -> http.send(
                            OutboundRequest.get(URI.create("https://other.example.test:" + port + "/status"))))
                    .isInstanceOf(OutboundException.Refused.class)
                    .hasMessageStartingWith("GET https://other.example.test:" + port + "/status: TLS handshake failed")
                    .extracting(e -> ((OutboundException) e).category())
                    .isEqualTo(FailureCategory.PERMANENT);
        }
    }
}
