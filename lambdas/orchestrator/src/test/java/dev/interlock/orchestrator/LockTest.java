package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.keys.LockKey;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class LockTest {

    private final Fixture f = new Fixture();
    private final LockKey key = new LockKey("orders", "daily");

    private JsonNode acquire(String owner) {
        return f.call(f.request("acquireLock", Map.of("owner", owner, "executionTimeoutSeconds", 14400)));
    }

    private JsonNode release(String owner) {
        return f.call(f.request("releaseLock", Map.of("owner", owner)));
    }

    @Test
    void aFreeLockIsAcquiredWithATtlLongerThanTheExecutionTimeout() {
        JsonNode response = acquire("exec-a");

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("acquired").asBoolean()).isTrue();
        assertThat(response.get("payload").get("ttlSeconds").asLong()).isEqualTo(14400 + 1800);
        assertThat(f.provider.locks().holder(key)).contains("exec-a");
    }

    @Test
    void aLockHeldByAnotherOwnerIsASkipNamingTheHolder() {
        acquire("exec-a");

        JsonNode response = acquire("exec-b");

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("reason").asText()).isEqualTo("lock eval:orders:daily held by exec-a");
        assertThat(response.get("payload").get("acquired").asBoolean()).isFalse();
        assertThat(response.get("payload").get("ttlSeconds").asLong()).isZero();
    }

    @Test
    void anExpiredLockIsTakenOver() {
        acquire("exec-a");
        f.clock.advance(Duration.ofSeconds(14400 + 1800));

        JsonNode response = acquire("exec-b");

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(f.provider.locks().holder(key)).contains("exec-b");
    }

    @Test
    void aLockIsNotExpiredJustBeforeItsTtl() {
        acquire("exec-a");
        f.clock.advance(Duration.ofSeconds(14400 + 1799));

        assertThat(acquire("exec-b").get("result").asText()).isEqualTo("skip");
    }

    @Test
    void theSameOwnerReacquiresAndExtends() {
        acquire("exec-a");
        f.clock.advance(Duration.ofSeconds(10000));

        JsonNode again = acquire("exec-a");
        f.clock.advance(Duration.ofSeconds(10000)); // past the first TTL, inside the extended one

        assertThat(again.get("result").asText()).isEqualTo("proceed");
        assertThat(acquire("exec-b").get("result").asText()).isEqualTo("skip");
    }

    @Test
    void theConfiguredTimeoutWinsWhenTheRequestAsksForLess() {
        JsonNode response = f.call(f.request("acquireLock", Map.of("owner", "exec-a", "executionTimeoutSeconds", 60)));

        assertThat(response.get("payload").get("ttlSeconds").asLong()).isEqualTo(14400 + 1800);
    }

    @Test
    void theOwnerDefaultsToTheExecutionName() {
        JsonNode response = f.call(f.request("acquireLock", Map.of("executionTimeoutSeconds", 14400)));

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(f.provider.locks().holder(key)).contains(Fixture.EXECUTION);
    }

    @Test
    void withoutAnyOwnerItIsAnError() {
        var request = f.request("acquireLock", Map.of());
        request.remove("executionName");

        JsonNode response = f.call(request);

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("payload").get("acquired").asBoolean()).isFalse();
    }

    @Test
    void onlyTheOwnerReleases() {
        acquire("exec-a");

        JsonNode byOther = release("exec-b");
        JsonNode byOwner = release("exec-a");

        assertThat(byOther.get("result").asText()).isEqualTo("proceed");
        assertThat(byOther.get("payload").get("released").asBoolean()).isFalse();
        assertThat(byOwner.get("payload").get("released").asBoolean()).isTrue();
        assertThat(f.provider.locks().holder(key)).isEmpty();
    }

    @Test
    void releasingAFreeLockIsAHarmlessProceed() {
        JsonNode response = release("exec-a");

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("released").asBoolean()).isFalse();
    }
}
