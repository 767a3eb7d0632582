package dev.interlock.evaluator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.evaluation.HttpEvaluator;
import dev.interlock.evaluation.LambdaEvaluator;
import dev.interlock.evaluation.TraitEvaluation;
import dev.interlock.store.Provider;
import dev.interlock.store.StoreException;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.memory.InMemoryProvider;
import dev.interlock.testing.TestTemplates;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
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
    void theEvaluatorAnswersItsVerdictAndWritesNothing() throws IOException {
        // A store that fails every write: the evaluator never writes, the orchestrator records the round.
        Provider readOnly = (Provider) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {Provider.class}, (proxy, method, args) -> {
                    if (method.getName().equals("traits") || method.getName().equals("events")) {
                        throw new StoreException("the evaluator may not write: " + method.getName());
                    }
                    try {
                        return method.invoke(provider, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });

        String out = call(
                handler(readOnly),
                "{\"pipelineId\":\"orders\",\"scheduleId\":\"h07\",\"date\":\"2026-03-01\","
                        + "\"traitType\":\"demo\",\"evaluator\":\"builtin:always-fail\",\"config\":{},\"timeout\":5,\"ttl\":300,"
                        + "\"required\":true}");

        assertThat(out)
                .isEqualTo(
                        "{\"traitType\":\"demo\",\"status\":\"FAIL\",\"reason\":\"builtin:always-fail never passes\","
                                + "\"required\":true}");
        assertThat(provider.traits().list("orders", DATE, "h07")).isEmpty();
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
    void errorResultsKeepTheirCategoryInTheAnswer() throws IOException {
        String out = call(
                handler(provider),
                "{\"pipelineId\":\"orders\",\"scheduleId\":\"daily\",\"date\":\"2026-03-01\","
                        + "\"traitType\":\"demo\",\"evaluator\":\"builtin:nope\",\"config\":{},\"timeout\":5,\"ttl\":0,"
                        + "\"required\":true}");

        assertThat(out).contains("\"status\":\"ERROR\"").contains("\"failureCategory\":\"PERMANENT\"");
    }
}
