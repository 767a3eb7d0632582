package dev.interlock.statemachine;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

/** The Interlock state machine definition (ASL JSON) as shipped in this module, with its placeholder substitution. */
public final class AslDefinition {

    /** Classpath location of the one ASL file; the CDK stack and the local runtime both read it from here. */
    public static final String RESOURCE = "/asl/interlock.asl.json";

    /** Every placeholder the definition uses; CONTRACT.md documents what each one stands for. */
    public static final Set<String> PLACEHOLDERS = Set.of(
            "OrchestratorFunctionArn",
            "EvaluatorFunctionArn",
            "TriggerFunctionArn",
            "RunCheckerFunctionArn",
            "AlertTopicArn");

    private AslDefinition() {}

    /** The definition text exactly as stored, placeholders included. */
    public static String load() {
        try (InputStream in = AslDefinition.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("ASL definition " + RESOURCE + " is not on the classpath");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("reading ASL definition " + RESOURCE, e);
        }
    }

    /**
     * The placeholders of {@code definition} that are not among {@link #PLACEHOLDERS}: what a deployment that
     * substitutes only those would leave in the text (and Step Functions would meet as a literal at run time).
     */
    public static Set<String> unknownPlaceholders(String definition) {
        Set<String> unknown = new java.util.TreeSet<>(DefinitionSubstitution.placeholders(definition));
        unknown.removeAll(PLACEHOLDERS);
        return unknown;
    }

    /**
     * The definition with every {@code ${Name}} replaced by {@code values.get(Name)}.
     *
     * @throws IllegalArgumentException naming every placeholder of the definition that {@code values} lacks
     */
    public static String substitute(Map<String, String> values) {
        return substitute(load(), values);
    }

    /** One substitution for the whole module: the engine's parser uses {@link DefinitionSubstitution} as well. */
    static String substitute(String definition, Map<String, String> values) {
        return DefinitionSubstitution.apply(definition, values).requireComplete();
    }
}
