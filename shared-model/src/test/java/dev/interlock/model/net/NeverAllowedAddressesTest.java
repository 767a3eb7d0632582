package dev.interlock.model.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class NeverAllowedAddressesTest {

    /** A resolver that knows one name pointing at the instance-metadata address and nothing else. */
    private static final HostResolver TABLE = host -> switch (host) {
        case "metadata.internal.example" -> List.of(InetAddress.getByName("169.254.169.254"));
        case "db.internal.example" -> List.of(InetAddress.getByName("10.0.0.7"));
        default -> throw new UnknownHostException(host);
    };

    private final NeverAllowedAddresses rule = new NeverAllowedAddresses(TABLE);

    @ParameterizedTest
    @CsvSource({
        "2852039166, 169.254.169.254",
        "0251.0376.0251.0376, 169.254.169.254",
        "0xa9fea9fe, 169.254.169.254",
        "0xA9.0xFE.0xA9.0xFE, 169.254.169.254",
        "169.254.43518, 169.254.169.254",
        "0251.0xfe.43518, 169.254.169.254",
        "127.1, 127.0.0.1",
        "10.0.0.7, 10.0.0.7",
        "fd00:ec2::254, fd00:ec2:0:0:0:0:0:254",
        "::ffff:169.254.169.254, 169.254.169.254"
    })
    void everySpellingOfAnAddressIsReadAsAClientReadsIt(String host, String address) {
        assertThat(HostLiteral.address(host)).map(InetAddress::getHostAddress).contains(address);
    }

    @ParameterizedTest
    @CsvSource({"example.com", "4294967296", "08.1.2.3", "1.2.3.4.5", "256.1.2.3", "a.0x1"})
    void namesAndOutOfRangeNumbersAreNotAddresses(String host) {
        assertThat(HostLiteral.address(host)).isEmpty();
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "http://169.254.169.254/latest/meta-data/iam/ | address 169.254.169.254 is metadata and never allowed",
                "http://[fd00:ec2::254]/x | address fd00:ec2::254 is metadata and never allowed",
                "http://[::ffff:169.254.169.254]/x | address ::ffff:169.254.169.254 is metadata and never allowed",
                "http://2852039166/ | address 2852039166 is metadata and never allowed",
                "http://0251.0376.0251.0376/ | address 0251.0376.0251.0376 is metadata and never allowed",
                "http://0xa9fea9fe:8080/x | address 0xa9fea9fe is metadata and never allowed",
                "http://169.254.1.1/ | address 169.254.1.1 is link-local and never allowed",
                "http://[fe80::1]/ | address fe80::1 is link-local and never allowed",
                "http://metadata.internal.example/x | host 'metadata.internal.example' resolves to 169.254.169.254, which is metadata and never allowed"
            })
    void neverAllowedAddressesAreRefusedInEverySpelling(String url, String problem) {
        assertThat(rule.problem(URI.create(url))).contains(problem);
    }

    @ParameterizedTest
    @CsvSource({
        "http://127.0.0.1:8080/x",
        "http://localhost.invalid/x",
        "http://db.internal.example/x",
        "http://10.1.2.3/x",
        "https://[fd12::1]/x",
        "https://8.8.8.8/x"
    })
    void privateLoopbackAndUnresolvableHostsAreLeftToCallTime(String url) {
        assertThat(rule.problem(URI.create(url))).isEmpty();
    }

    @Test
    void aLookupThatDoesNotAnswerIsCutAtTheBound() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        HostResolver hanging = host -> {
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return List.of(InetAddress.getByName("169.254.169.254"));
        };
        NeverAllowedAddresses bounded = new NeverAllowedAddresses(hanging.bounded(Duration.ofMillis(50)));

        assertThat(bounded.problem(URI.create("http://slow.example/x"))).isEmpty();
        never.countDown();
    }

    @Test
    void aHostListOfTheDeploymentIsJudgedWithoutLookups() {
        assertThat(NeverAllowedAddresses.literalProblem("169.254.169.254"))
                .contains("address 169.254.169.254 is metadata and never allowed");
        assertThat(NeverAllowedAddresses.literalProblem("airflow.example.com")).isEmpty();
    }
}
