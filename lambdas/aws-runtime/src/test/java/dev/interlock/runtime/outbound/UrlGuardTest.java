package dev.interlock.runtime.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.net.AddressKind;
import dev.interlock.model.net.HostResolver;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.runtime.Environment;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class UrlGuardTest {

    private static final UrlGuard STRICT = new UrlGuard(false, HostResolver.system());
    private static final UrlGuard LOCAL = new UrlGuard(true, HostResolver.system());

    @ParameterizedTest
    @CsvSource({
        "127.0.0.1, LOOPBACK",
        "127.8.9.10, LOOPBACK",
        "10.1.2.3, PRIVATE",
        "172.16.0.1, PRIVATE",
        "172.31.255.255, PRIVATE",
        "172.32.0.1, PUBLIC",
        "192.168.1.1, PRIVATE",
        "100.64.0.1, PRIVATE",
        "0.0.0.0, UNSPECIFIED",
        "169.254.0.1, LINK_LOCAL",
        "169.254.169.254, METADATA",
        "169.254.170.2, METADATA",
        "100.100.100.200, METADATA",
        "168.63.129.16, METADATA",
        "192.0.0.192, METADATA",
        "224.0.0.1, RESERVED",
        "255.255.255.255, RESERVED",
        "8.8.8.8, PUBLIC",
        "::1, LOOPBACK",
        "::, UNSPECIFIED",
        "fe80::1, LINK_LOCAL",
        "febf::1, LINK_LOCAL",
        "fd00:ec2::254, METADATA",
        "fc00::1, UNIQUE_LOCAL",
        "fd12:3456::1, UNIQUE_LOCAL",
        "ff02::1, RESERVED",
        "::ffff:169.254.169.254, METADATA",
        "::ffff:127.0.0.1, LOOPBACK",
        "::a9fe:a9fe, METADATA",
        "64:ff9b::a9fe:a9fe, METADATA",
        "64:ff9b::a00:1, PRIVATE",
        "2002:7f00:1::1, LOOPBACK",
        "2001:4860:4860::8888, PUBLIC"
    })
    void classifiesAddresses(String ip, AddressKind expected) throws UnknownHostException {
        assertThat(AddressKind.of(InetAddress.getByName(ip))).isEqualTo(expected);
    }

    @Test
    void loopbackIsRefusedByDefaultAndAllowedWithTheFlag() throws OutboundException {
        assertThatThrownBy(() -> STRICT.check(URI.create("http://127.0.0.1:8080/x")))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessage("address 127.0.0.1 is loopback; private addresses need INTERLOCK_ALLOW_PRIVATE_URLS=true");
        CheckedTarget target = LOCAL.check(URI.create("http://127.0.0.1:8080/x"));
        assertThat(target.address().getHostAddress()).isEqualTo("127.0.0.1");
        assertThat(target.port()).isEqualTo(8080);
    }

    @Test
    void theFlagIsReadFromTheEnvironment() {
        assertThat(UrlGuard.fromEnvironment(Environment.of(Map.of())).allowsPrivate())
                .isFalse();
        assertThat(UrlGuard.fromEnvironment(Environment.of(Map.of("INTERLOCK_ALLOW_PRIVATE_URLS", "true")))
                        .allowsPrivate())
                .isTrue();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://169.254.169.254/latest/meta-data/",
                "http://[fd00:ec2::254]/latest/",
                "http://100.100.100.200/",
                "http://[::ffff:169.254.169.254]/",
                "http://[::ffff:a9fe:a9fe]/",
                "http://169.254.10.20:8080/",
                "http://[fe80::1]/",
                "https://169.254.169.254/",
                "http://224.0.0.1/"
            })
    void linkLocalAndMetadataAreRefusedEvenWhenPrivateUrlsAreAllowed(String url) {
        assertThatThrownBy(() -> LOCAL.check(URI.create(url)))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessageEndingWith("and never allowed")
                .extracting(e -> ((OutboundException) e).category())
                .isEqualTo(FailureCategory.PERMANENT);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://[::1]:9000/",
                "http://[fc00::5]/",
                "http://[::]/",
                "http://0.0.0.0/",
                "http://10.0.0.8/",
                "http://192.168.0.1/",
                "http://[::ffff:10.0.0.1]/"
            })
    void ipv6AndOtherPrivateFormsFollowTheFlag(String url) throws OutboundException {
        assertThatThrownBy(() -> STRICT.check(URI.create(url)))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessageContaining("private addresses need INTERLOCK_ALLOW_PRIVATE_URLS=true");
        assertThat(LOCAL.check(URI.create(url)).address()).isNotNull();
    }

    @Test
    void aHostNameResolvingToLoopbackIsRefused() {
        assertThatThrownBy(() -> STRICT.check(URI.create("http://localhost:8080/")))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessageStartingWith("host 'localhost' resolves to ")
                .hasMessageContaining("which is loopback");
    }

    @Test
    void everyResolvedAddressIsCheckedNotJustTheFirst() throws UnknownHostException {
        InetAddress publicIp = InetAddress.getByName("93.184.216.34");
        InetAddress metadata = InetAddress.getByName("169.254.169.254");
        UrlGuard guard = new UrlGuard(true, host -> List.of(publicIp, metadata));
        assertThatThrownBy(() -> guard.check(URI.create("https://mixed.example.test/")))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessage(
                        "host 'mixed.example.test' resolves to 169.254.169.254, which is metadata and never allowed");
    }

    @ParameterizedTest
    @ValueSource(strings = {"file:///etc/passwd", "ftp://example.test/", "gopher://example.test/", "jar:file:/x!/y"})
    void onlyHttpAndHttpsSchemes(String url) {
        assertThatThrownBy(() -> LOCAL.check(URI.create(url)))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessageStartingWith("only http and https URLs are allowed");
    }

    @Test
    void credentialsInTheUrlAreRefused() {
        assertThatThrownBy(() -> LOCAL.check(URI.create("http://user:secret@127.0.0.1/")))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessage("credentials in a URL are not allowed; send them as a header");
    }

    @Test
    void anUnresolvableHostIsANetworkFailure() {
        UrlGuard guard = new UrlGuard(false, host -> {
            throw new UnknownHostException(host);
        });
        assertThatThrownBy(() -> guard.check(URI.create("http://nowhere.example.test/")))
                .isInstanceOf(OutboundException.Network.class)
                .hasMessage("cannot resolve host 'nowhere.example.test'")
                .extracting(e -> ((OutboundException) e).category())
                .isEqualTo(FailureCategory.TRANSIENT);
    }

    @Test
    void theCheckedTargetPinsTheAddressAndKeepsPathQueryAndHost() throws Exception {
        InetAddress publicIp = InetAddress.getByName("93.184.216.34");
        UrlGuard guard = new UrlGuard(false, host -> List.of(publicIp));
        CheckedTarget target = guard.check(URI.create("https://jobs.example.test:8443/api/v1/a%20b?token=x&y=%2F"));
        assertThat(target.pinnedUri()).hasToString("https://93.184.216.34:8443/api/v1/a%20b?token=x&y=%2F");
        assertThat(target.hostHeader()).isEqualTo("jobs.example.test:8443");
        assertThat(target.hostIsLiteral()).isFalse();
        assertThat(target.redacted()).isEqualTo("https://jobs.example.test:8443/api/v1/a%20b");

        CheckedTarget v6 = new UrlGuard(false, host -> List.of(InetAddress.getByName("2001:4860:4860::8888")))
                .check(URI.create("http://dual.example.test/"));
        assertThat(v6.pinnedUri()).hasToString("http://[2001:4860:4860:0:0:0:0:8888]:80/");
        assertThat(v6.hostHeader()).isEqualTo("dual.example.test");
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://2852039166/", "http://0251.0376.0251.0376/", "http://0xa9fea9fe/x"})
    void numericSpellingsOfTheMetadataAddressAreRefusedWithoutALookup(String url) {
        UrlGuard noDns = new UrlGuard(true, host -> {
            throw new UnknownHostException("no lookup expected for " + host);
        });
        assertThatThrownBy(() -> noDns.check(URI.create(url)))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessageEndingWith("is metadata and never allowed");
    }
}
