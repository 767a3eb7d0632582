package dev.interlock.runtime.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.secret.CredentialReference;
import dev.interlock.model.secret.CredentialReference.SecretsManagerSecret;
import dev.interlock.model.secret.CredentialReference.SsmParameter;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.testing.AwsProtocolStub;
import dev.interlock.testing.AwsProtocolStub.Reply;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Secrets and parameters read through the real SDK clients from a local endpoint speaking their JSON protocols. */
class CredentialResolverTest {

    private static final String SECRET_STRING = "{\"token\":\"t0k3n-value\",\"port\":5432,\"nested\":{\"a\":1}}";

    private final AwsProtocolStub stub = AwsProtocolStub.start();
    private final AwsClients aws = new AwsClients(Environment.of(Map.of(
            "AWS_REGION",
            "eu-west-1",
            "INTERLOCK_ENDPOINT_SECRETSMANAGER",
            stub.endpoint().toString(),
            "INTERLOCK_ENDPOINT_SSM",
            stub.endpoint().toString())));
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));

    private CredentialResolver resolver(Duration ttl) {
        return new CredentialResolver(
                new InterlockVariables(Map.of("INTERLOCK_TOKEN", "env-value")),
                new AwsCredentialStore(aws),
                ttl,
                clock,
                aws.offline());
    }

    @AfterEach
    void stop() {
        aws.close();
        stub.close();
    }

    private static Reply secret(String name, String secretString) {
        return Reply.json("{\"Name\":\"" + name + "\",\"SecretString\":"
                + com.fasterxml.jackson.databind.node.TextNode.valueOf(secretString) + "}");
    }

    @Test
    void aSecretIsReadOnceForAllItsKeysAndReadAgainOnlyAfterItsTtl() throws Exception {
        stub.on("secretsmanager.GetSecretValue", secret("airflow/prod", SECRET_STRING));
        CredentialResolver resolver = resolver(Duration.ofMinutes(5));

        assertThat(resolver.resolve(new SecretsManagerSecret("airflow/prod", "token")))
                .isEqualTo("t0k3n-value");
        assertThat(resolver.resolve(new SecretsManagerSecret("airflow/prod", "port")))
                .isEqualTo("5432");
        assertThat(resolver.resolve(new SecretsManagerSecret("airflow/prod", null)))
                .isEqualTo(SECRET_STRING);
        clock.advance(Duration.ofMinutes(5).minusSeconds(1));
        resolver.resolve(new SecretsManagerSecret("airflow/prod", "token"));
        assertThat(stub.requests("secretsmanager.GetSecretValue"))
                .hasSize(1)
                .allSatisfy(r -> assertThat(r.json().path("SecretId").asText()).isEqualTo("airflow/prod"));

        // A rotated secret is picked up once the cached value is older than the TTL.
        stub.on("secretsmanager.GetSecretValue", secret("airflow/prod", "{\"token\":\"rotated\"}"));
        clock.advance(Duration.ofSeconds(2));
        assertThat(resolver.resolve(new SecretsManagerSecret("airflow/prod", "token")))
                .isEqualTo("rotated");
        assertThat(stub.requests("secretsmanager.GetSecretValue")).hasSize(2);
    }

    @Test
    void aParameterIsReadDecryptedAndAZeroTtlReadsOnEveryCall() throws Exception {
        stub.on(
                "AmazonSSM.GetParameter",
                Reply.json("{\"Parameter\":{\"Name\":\"/interlock/key\",\"Type\":\"SecureString\","
                        + "\"Value\":\"p4ram\"}}"));
        CredentialResolver resolver = resolver(Duration.ZERO);

        assertThat(resolver.resolve(new SsmParameter("/interlock/key"))).isEqualTo("p4ram");
        assertThat(resolver.resolve(new SsmParameter("/interlock/key"))).isEqualTo("p4ram");
        assertThat(stub.requests("AmazonSSM.GetParameter")).hasSize(2).allSatisfy(r -> {
            assertThat(r.json().path("Name").asText()).isEqualTo("/interlock/key");
            assertThat(r.json().path("WithDecryption").asBoolean()).isTrue();
        });
    }

    @Test
    void theCacheIsBoundedAndForgetsTheLeastRecentlyUsedFirst() throws Exception {
        AtomicInteger reads = new AtomicInteger();
        stub.on("AmazonSSM.GetParameter", request -> {
            reads.incrementAndGet();
            return Reply.json(
                    "{\"Parameter\":{\"Name\":\"" + request.json().path("Name").asText() + "\",\"Value\":\"v\"}}");
        });
        CredentialResolver resolver = resolver(Duration.ofMinutes(5));
        for (int i = 0; i <= CredentialResolver.MAX_ENTRIES; i++) {
            resolver.resolve(new SsmParameter("/p/" + i));
        }
        assertThat(reads).hasValue(CredentialResolver.MAX_ENTRIES + 1);
        resolver.resolve(new SsmParameter("/p/" + CredentialResolver.MAX_ENTRIES));
        assertThat(reads).as("the newest is still cached").hasValue(CredentialResolver.MAX_ENTRIES + 1);
        resolver.resolve(new SsmParameter("/p/0"));
        assertThat(reads).as("the oldest was dropped").hasValue(CredentialResolver.MAX_ENTRIES + 2);
    }

    @Test
    void failuresAreTypedAndNameTheReferenceNeverItsValue() {
        CredentialResolver resolver = resolver(Duration.ofMinutes(5));
        stub.on(
                "secretsmanager.GetSecretValue",
                Reply.error(400, "ResourceNotFoundException", "Secrets Manager can't find it"));
        assertFailure(
                resolver,
                new SecretsManagerSecret("gone", "k"),
                FailureCategory.PERMANENT,
                "Secrets Manager secret 'gone' does not exist");
        stub.on("secretsmanager.GetSecretValue", Reply.error(400, "AccessDeniedException", "User is not authorized"));
        assertFailure(
                resolver,
                new SecretsManagerSecret("denied", null),
                FailureCategory.PERMANENT,
                "Secrets Manager secret 'denied' cannot be read: access denied (the function's role may call "
                        + "secretsmanager:GetSecretValue only on the configured name prefix)");
        stub.on("AmazonSSM.GetParameter", Reply.error(400, "ParameterNotFound", ""));
        assertFailure(
                resolver, new SsmParameter("/gone"), FailureCategory.PERMANENT, "SSM parameter '/gone' does not exist");
        stub.on("AmazonSSM.GetParameter", Reply.error(400, "ThrottlingException", "Rate exceeded"));
        assertFailure(
                resolver,
                new SsmParameter("/busy"),
                FailureCategory.TRANSIENT,
                "SSM parameter '/busy' cannot be read: ThrottlingException (status 400)");
    }

    @Test
    void aSecretThatIsNotWhatTheReferenceExpectsFailsWithoutQuotingIt() {
        CredentialResolver resolver = resolver(Duration.ofMinutes(5));
        stub.on("secretsmanager.GetSecretValue", secret("plain", "not json s3cr3t"));
        assertFailure(
                resolver,
                new SecretsManagerSecret("plain", "token"),
                FailureCategory.PERMANENT,
                "Secrets Manager secret 'plain' is not a JSON object, so it has no key 'token' (write ${secret:plain} "
                        + "for the whole secret string)");
        stub.on("secretsmanager.GetSecretValue", secret("json", SECRET_STRING));
        assertFailure(
                resolver,
                new SecretsManagerSecret("json", "missing"),
                FailureCategory.PERMANENT,
                "Secrets Manager secret 'json' has no key 'missing'");
        assertFailure(
                resolver,
                new SecretsManagerSecret("json", "nested"),
                FailureCategory.PERMANENT,
                "key 'nested' of Secrets Manager secret 'json' is not a string or number");
        stub.on("secretsmanager.GetSecretValue", Reply.json("{\"Name\":\"binary\",\"SecretBinary\":\"AAEC\"}"));
        assertFailure(
                resolver,
                new SecretsManagerSecret("binary", null),
                FailureCategory.PERMANENT,
                "Secrets Manager secret 'binary' has no SecretString (binary secrets cannot be sent in a request)");
    }

    @Test
    void environmentVariablesAreReadFromTheFunctionsInterlockVariables() throws Exception {
        assertThat(resolver(Duration.ZERO).resolve(new CredentialReference.EnvironmentVariable("INTERLOCK_TOKEN")))
                .isEqualTo("env-value");
        assertThat(stub.requests()).isEmpty();
    }

    @Test
    void whilePrimingTheClientsRunButNothingIsCachedAndAPlaceholderStandsIn() throws Exception {
        stub.on("secretsmanager.GetSecretValue", secret("airflow/prod", SECRET_STRING));
        CredentialResolver resolver = resolver(Duration.ofMinutes(5));
        String primed = aws.offline().run(() -> resolver.resolve(new SecretsManagerSecret("airflow/prod", "token")));
        assertThat(primed).isEqualTo(CredentialResolver.PRIMING_VALUE);
        assertThat(stub.requests()).as("answered inside the process").isEmpty();

        assertThat(resolver.resolve(new SecretsManagerSecret("airflow/prod", "token")))
                .isEqualTo("t0k3n-value");
        assertThat(stub.requests()).as("nothing was cached while priming").hasSize(1);
    }

    private static void assertFailure(
            CredentialResolver resolver, CredentialReference reference, FailureCategory category, String message) {
        assertThatThrownBy(() -> resolver.resolve(reference))
                .isInstanceOf(OutboundException.CredentialUnavailable.class)
                .hasMessage(message)
                .hasMessageNotContaining("s3cr3t")
                .hasMessageNotContaining("t0k3n")
                .satisfies(e -> assertThat(((OutboundException) e).category()).isEqualTo(category));
    }
}
