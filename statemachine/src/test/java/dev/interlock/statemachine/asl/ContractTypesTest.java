package dev.interlock.statemachine.asl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.RunCheckInput;
import dev.interlock.model.contract.RunCheckOutput;
import dev.interlock.model.contract.TriggerInput;
import dev.interlock.model.contract.TriggerOutput;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.model.trait.TraitVerdict;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The Lambdas' request and answer records in shared-model are exactly what contract.json promises (every field, its
 * name and its type, nested objects included), and the answers write every always-present field even when built
 * from nothing. With {@link ContractTest} (the ASL sends and reads what contract.json lists) a field renamed on one
 * side fails the build.
 */
class ContractTypesTest {

    private final JsonNode contract = Asl.contract();
    private final JsonNode states = Asl.definition().get("States");

    @Test
    void triggerRequestAndAnswerAreTheContractsTriggerInputAndOutput() {
        assertThat(shapeProblems(TriggerInput.class, contract.at("/trigger/input"), "trigger.input"))
                .isEmpty();
        assertThat(shapeProblems(TriggerOutput.class, contract.at("/trigger/output"), "trigger.output"))
                .isEmpty();
    }

    @Test
    void runCheckRequestAndAnswerAreTheContractsRunCheckerInputAndOutput() {
        assertThat(shapeProblems(RunCheckInput.class, contract.at("/runChecker/input"), "runChecker.input"))
                .isEmpty();
        assertThat(shapeProblems(RunCheckOutput.class, contract.at("/runChecker/output"), "runChecker.output"))
                .isEmpty();
    }

    @Test
    void theTraitVerdictIsTheEvaluatorsOutputAndWhatReadinessAndDriftRead() {
        assertThat(shapeProblems(TraitVerdict.class, contract.at("/evaluator/output"), "evaluator.output"))
                .isEmpty();
        JsonNode actions = contract.at("/orchestrator/actions");
        assertThat(actions.at("/checkReadiness/request/traitResults").asText()).isEqualTo("array<traitResult>");
        assertThat(actions.at("/checkDrift/request/baseline").asText()).isEqualTo("array<traitResult>");
        assertThat(actions.at("/checkDrift/request/current").asText()).isEqualTo("array<traitResult>");
    }

    @Test
    void theMapsCatchBuildsATraitVerdictOfTheSameShape() {
        for (String path : List.of(
                "/EvaluateTraits/ItemProcessor/States/EvaluateTraitFailed/Parameters",
                "/MonitoringEvaluate/ItemProcessor/States/MonitorTraitFailed/Parameters")) {
            JsonNode parameters = states.at(path);
            Set<String> keys = new TreeSet<>();
            parameters
                    .fieldNames()
                    .forEachRemaining(k -> keys.add(k.endsWith(".$") ? k.substring(0, k.length() - 2) : k));
            assertThat(keys).as(path).isEqualTo(componentNames(TraitVerdict.class));
            assertThat(parameters.get("status").asText()).isEqualTo(TraitStatus.ERROR.wireName());
            assertThat(parameters.get("failureCategory").asText()).isEqualTo(FailureCategory.TRANSIENT.wireName());
        }
    }

    @Test
    void answersBuiltFromNothingStillWriteEveryAlwaysPresentField() {
        assertThat(missingRequired(
                        new TriggerOutput(null, "failed", null, null, null, null), contract.at("/trigger/output")))
                .isEmpty();
        assertThat(missingRequired(new RunCheckOutput("running", null, null), contract.at("/runChecker/output")))
                .isEmpty();
        assertThat(missingRequired(
                        new TraitVerdict("t", TraitStatus.FAIL, null, null, null, false),
                        contract.at("/evaluator/output")))
                .isEmpty();
    }

    @Test
    void aRenamedOrRetypedFieldIsFound() {
        // The check itself can fail: a record whose field is named or typed differently from the contract.
        record Renamed(
                String runId,
                String state,
                Map<String, String> metadata,
                String error,
                String failureCategory,
                String startedAt) {}
        record Retyped(String state, String message, int failureCategory) {}
        assertThat(shapeProblems(Renamed.class, contract.at("/trigger/output"), "trigger.output"))
                .containsExactlyInAnyOrder(
                        "trigger.output.status: in contract.json, not in the record",
                        "trigger.output.state: in the record, not in contract.json");
        assertThat(shapeProblems(Retyped.class, contract.at("/runChecker/output"), "runChecker.output"))
                .containsExactly("runChecker.output.failureCategory: contract.json says string, the record integer");
    }

    private static List<String> missingRequired(Record answer, JsonNode spec) {
        JsonNode written = InterlockJson.tree(answer);
        List<String> missing = new ArrayList<>();
        spec.properties().forEach(f -> {
            if (!f.getValue().asText().endsWith("?") && !written.has(f.getKey())) {
                missing.add(f.getKey());
            }
        });
        return missing;
    }

    /** What differs between a record and a contract.json object: field names, and each shared field's type. */
    private static List<String> shapeProblems(Class<?> type, JsonNode spec, String where) {
        Map<String, RecordComponent> components = new TreeMap<>();
        for (RecordComponent c : type.getRecordComponents()) {
            components.put(c.getName(), c);
        }
        List<String> problems = new ArrayList<>();
        spec.fieldNames().forEachRemaining(name -> {
            if (!components.containsKey(name)) {
                problems.add(where + "." + name + ": in contract.json, not in the record");
            }
        });
        components.forEach((name, component) -> {
            JsonNode fieldSpec = spec.get(name);
            if (fieldSpec == null) {
                problems.add(where + "." + name + ": in the record, not in contract.json");
            } else if (fieldSpec.isObject()) {
                if (component.getType().isRecord()) {
                    problems.addAll(shapeProblems(component.getType(), fieldSpec, where + "." + name));
                } else {
                    problems.add(
                            where + "." + name + ": contract.json lists its fields, the record has no record for it");
                }
            } else {
                String promised = fieldSpec.asText().replace("?", "");
                String declared = contractType(component.getGenericType());
                if (!promised.equals("any")
                        && !promised.equals(declared)
                        && !(promised.startsWith("array<") && declared.equals("array"))) {
                    problems.add(where + "." + name + ": contract.json says " + promised + ", the record " + declared);
                }
            }
        });
        return problems;
    }

    private static Set<String> componentNames(Class<?> type) {
        Set<String> names = new TreeSet<>();
        for (RecordComponent c : type.getRecordComponents()) {
            names.add(c.getName());
        }
        return names;
    }

    /** The contract.json type a field of this Java type is written as. */
    private static String contractType(Type type) {
        Class<?> raw = type instanceof ParameterizedType p ? (Class<?>) p.getRawType() : (Class<?>) type;
        if (raw == String.class || raw.isEnum()) {
            return "string";
        }
        if (raw == int.class || raw == Integer.class || raw == long.class || raw == Long.class) {
            return "integer";
        }
        if (raw == double.class || raw == Double.class) {
            return "number";
        }
        if (raw == boolean.class || raw == Boolean.class) {
            return "boolean";
        }
        if (Collection.class.isAssignableFrom(raw)) {
            return "array";
        }
        if (Map.class.isAssignableFrom(raw) || JsonNode.class.isAssignableFrom(raw) || raw.isRecord()) {
            return "object";
        }
        return raw.getName();
    }
}
