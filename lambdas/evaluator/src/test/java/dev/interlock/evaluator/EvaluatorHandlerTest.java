package dev.interlock.evaluator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.store.PageRequest;
import dev.interlock.store.Provider;
import dev.interlock.store.StoreException;
import dev.interlock.store.TraitStore;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.memory.InMemoryProvider;
import dev.interlock.testing.TestTemplates;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The evaluator's JSON in and out, and what it stores. */
class EvaluatorHandlerTest {

    private static final LocalDate DATE = LocalDate.parse("2026-03-01");
    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

    private final ManualClock clock = new ManualClock(NOW);
    private final InMemoryProvider provider = new InMemoryProvider(clock);

    private EvaluatorHandler handler(Provider store) {
        return new EvaluatorHandler(new TraitEvaluation(
                store, new HttpEvaluator(null, "", TestTemplates.none()), new LambdaEvaluator(() -> null), clock));
    }

    private static String call(EvaluatorHandler handler, String json) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        handler.handleRequest(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), out, null);
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void readsGoStyleKeysIgnoresUnknownOnesAndAnswersTheContractShape() throws IOException {
        String out = call(
                handler(provider),
                "{\"pipelineID\":\"orders\",\"scheduleID\":\"daily\",\"date\":\"2026-03-01\","
                        + "\"traitType\":\"demo\",\"evaluator\":\"builtin:always-pass\",\"config\":{},\"timeout\":5,\"ttl\":300,"
                        + "\"required\":true,\"somethingNew\":[1,2]}");

        assertThat(out)
                .isEqualTo("{\"traitType\":\"demo\",\"status\":\"PASS\",\"value\":{\"builtin\":\"always-pass\"},"
                        + "\"required\":true}");
    }

    @Test
    void anErrorCarriesItsReasonAndCategory() throws IOException {
        String out = call(
                handler(provider),
                "{\"pipelineId\":\"orders\",\"scheduleId\":\"daily\",\"date\":\"2026-03-01\","
                        + "\"traitType\":\"gate\",\"evaluator\":\"builtin:sensor-freshness\",\"config\":{},\"timeout\":5,\"ttl\":0,"
                        + "\"required\":false}");

        assertThat(out)
                .isEqualTo("{\"traitType\":\"gate\",\"status\":\"ERROR\",\"reason\":\"builtin:sensor-freshness config "
                        + "missing: sensor\",\"failureCategory\":\"PERMANENT\",\"required\":false}");
    }

    @Test
    void theResultIsStoredWithTheTraitTtlAndAnEventIsAppended() throws IOException {
        call(
                handler(provider),
                "{\"pipelineId\":\"orders\",\"scheduleId\":\"h07\",\"date\":\"2026-03-01\","
                        + "\"traitType\":\"demo\",\"evaluator\":\"builtin:always-fail\",\"config\":{},\"timeout\":5,\"ttl\":300,"
                        + "\"required\":true}");

        TraitResult stored =
                provider.traits().get("orders", DATE, "h07", "demo").orElseThrow();
        assertThat(stored)
                .isEqualTo(new TraitResult(
                        "orders",
                        "h07",
                        DATE,
                        "demo",
                        TraitStatus.FAIL,
                        null,
                        "builtin:always-fail never passes",
                        null,
                        true,
                        NOW,
                        NOW.plusSeconds(300)));
        List<Event> events =
                provider.events().read("orders", new PageRequest(10, null)).items();
        assertThat(events)
                .containsExactly(new Event(
                        EventKind.TRAIT_EVALUATED,
                        "orders",
                        "h07",
                        DATE,
                        null,
                        "demo",
                        "FAIL",
                        "builtin:always-fail never passes",
                        Map.of(),
                        NOW));
        clock.advance(Duration.ofSeconds(300));
        assertThat(provider.traits().get("orders", DATE, "h07", "demo")).isEmpty();
    }

    @Test
    void aStoreFailureThrowsSoStepFunctionsSeesAFaultNotAWrongStatus() {
        TraitStore broken = (TraitStore) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {TraitStore.class}, (proxy, method, args) -> {
                    throw new StoreException("PutItem TRAIT#2026-03-01#daily#demo failed: throttled");
                });
        Provider failing = (Provider) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {Provider.class}, (proxy, method, args) -> {
                    if (method.getName().equals("traits")) {
                        return broken;
                    }
                    try {
                        return method.invoke(provider, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });

        assertThatThrownBy(() -> call(
                        handler(failing),
                        "{\"pipelineId\":\"orders\",\"scheduleId\":\"daily\","
                                + "\"date\":\"2026-03-01\",\"traitType\":\"demo\",\"evaluator\":\"builtin:always-pass\",\"config\":{},"
                                + "\"timeout\":5,\"ttl\":0,\"required\":true}"))
                .isInstanceOf(StoreException.class)
                .hasMessage("PutItem TRAIT#2026-03-01#daily#demo failed: throttled");
        assertThat(provider.events().latest("orders", 10)).isEmpty();
    }

    @Test
    void inputWithoutTheKeyFieldsIsRejectedNamingThem() {
        assertThatThrownBy(
                        () -> call(handler(provider), "{\"traitType\":\"demo\",\"evaluator\":\"builtin:always-pass\"}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("evaluator input is missing pipelineId, scheduleId, date");
    }

    @Test
    void errorResultsKeepTheirCategoryWhenStored() throws IOException {
        call(
                handler(provider),
                "{\"pipelineId\":\"orders\",\"scheduleId\":\"daily\",\"date\":\"2026-03-01\","
                        + "\"traitType\":\"demo\",\"evaluator\":\"builtin:nope\",\"config\":{},\"timeout\":5,\"ttl\":0,"
                        + "\"required\":true}");

        TraitResult stored =
                provider.traits().get("orders", DATE, "daily", "demo").orElseThrow();
        assertThat(stored.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(stored.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(stored.expiresAt()).isNull();
    }
}
