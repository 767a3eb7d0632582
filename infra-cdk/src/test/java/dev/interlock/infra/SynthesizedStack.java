package dev.interlock.infra;

import dev.interlock.model.runtime.InterlockFunction;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;
import software.amazon.awscdk.assertions.Annotations;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awscdk.cxapi.SynthesisMessage;

/**
 * One synthesized Interlock stack for a whole test class (jsii starts once per JVM and a synth takes seconds): the
 * options read from context exactly as {@link InterlockApp} reads them (on top of {@code cdk.json}'s context, as the
 * CLI would), the template, and every error and warning annotation, cdk-nag's included.
 */
record SynthesizedStack(
        InterlockStack stack,
        DeploymentOptions options,
        BuildArtifacts artifacts,
        Template template,
        Map<String, Object> templateJson,
        List<SynthesisMessage> errors,
        List<SynthesisMessage> warnings) {

    static SynthesizedStack synthesize(Map<String, Object> context) {
        Map<String, Object> merged = new HashMap<>(InterlockApp.cdkJsonContext());
        merged.putAll(context);
        App app = new App(AppProps.builder()
                .outdir(Path.of("target", "cdk-test-out", UUID.randomUUID().toString())
                        .toString())
                .context(merged)
                .build());
        DeploymentOptions options =
                DeploymentOptions.fromContext(key -> app.getNode().tryGetContext(key));
        BuildArtifacts artifacts = BuildArtifacts.locate(Path.of(""));
        InterlockStack stack = InterlockApp.stack(app, options, artifacts, null);
        Template template = Template.fromStack(stack);
        Annotations annotations = Annotations.fromStack(stack);
        // Read once: every toJSON() crosses the jsii bridge with the whole template.
        return new SynthesizedStack(
                stack,
                options,
                artifacts,
                template,
                template.toJSON(),
                annotations.findError("*", Match.anyValue()),
                annotations.findWarning("*", Match.anyValue()));
    }

    /** The template as plain maps and lists. */
    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> resources() {
        return (Map<String, Map<String, Object>>) templateJson.get("Resources");
    }

    /** Resources of one CloudFormation type, by logical id. */
    Map<String, Map<String, Object>> resourcesOfType(String type) {
        Map<String, Map<String, Object>> found = new java.util.LinkedHashMap<>();
        resources().forEach((id, resource) -> {
            if (type.equals(resource.get("Type"))) {
                found.put(id, resource);
            }
        });
        return found;
    }

    /** Logical id of one function, found by its handler. */
    String functionId(InterlockFunction function) {
        List<String> ids = resourcesOfType("AWS::Lambda::Function").entrySet().stream()
                .filter(e -> function.handler().equals(Json.at(e.getValue(), "Properties", "Handler")))
                .map(Map.Entry::getKey)
                .toList();
        if (ids.size() != 1) {
            throw new AssertionError("expected one function with handler " + function.handler() + ", found " + ids);
        }
        return ids.get(0);
    }

    Map<String, Object> function(InterlockFunction function) {
        return resources().get(functionId(function));
    }

    /** Logical id of the function's {@code live} alias. */
    String aliasId(InterlockFunction function) {
        String fnId = functionId(function);
        List<String> ids = resourcesOfType("AWS::Lambda::Alias").entrySet().stream()
                .filter(e -> Json.ref(fnId).equals(Json.at(e.getValue(), "Properties", "FunctionName")))
                .map(Map.Entry::getKey)
                .toList();
        if (ids.size() != 1) {
            throw new AssertionError("expected one alias of " + function + ", found " + ids);
        }
        return ids.get(0);
    }

    /** Logical id of the function's execution role. */
    String roleId(InterlockFunction function) {
        return String.valueOf(Json.list(function(function), "Properties", "Role", "Fn::GetAtt")
                .get(0));
    }

    /** Every statement of every inline policy attached to a role. */
    List<Map<String, Object>> statementsOfRole(String roleId) {
        List<Map<String, Object>> statements = new ArrayList<>();
        for (Map<String, Object> policy : resourcesOfType("AWS::IAM::Policy").values()) {
            if (Json.list(policy, "Properties", "Roles").contains(Json.ref(roleId))) {
                for (Object statement : Json.list(policy, "Properties", "PolicyDocument", "Statement")) {
                    statements.add(Json.map(statement));
                }
            }
        }
        return statements;
    }

    List<Map<String, Object>> statementsOf(InterlockFunction function) {
        return statementsOfRole(roleId(function));
    }

    /** Every action granted to a function's role. */
    List<String> actionsOf(InterlockFunction function) {
        return statementsOf(function).stream()
                .flatMap(s -> Json.strings(s, "Action").stream())
                .toList();
    }

    /** The statement with this Sid on the function's role, or fail. */
    Map<String, Object> statement(InterlockFunction function, String sid) {
        return statementsOf(function).stream()
                .filter(s -> sid.equals(s.get("Sid")))
                .findFirst()
                .orElseThrow(() -> new AssertionError(function + " has no statement " + sid));
    }

    /** Findings as readable lines for assertion messages. */
    static List<String> describe(List<SynthesisMessage> findings) {
        return findings.stream()
                .map(m -> m.getId() + ": " + m.getEntry().getData())
                .toList();
    }
}
