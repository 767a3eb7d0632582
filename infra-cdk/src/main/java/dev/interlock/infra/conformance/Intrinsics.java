package dev.interlock.infra.conformance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Resolves the CloudFormation expressions of a policy's {@code Resource} ({@code Ref}, {@code Fn::GetAtt},
 * {@code Fn::Join}, {@code Fn::Sub}, {@code Fn::Select}, {@code Fn::Split}) to the ARN a deployment would have, given
 * the pseudo parameters and what the stack's own resources are called there. A resource is known by what a function's
 * environment says it is ({@code TABLE_NAME = Ref Table} and the function saw {@code interlock}: the table's
 * {@code Ref} is {@code interlock}); its {@code Arn} and {@code StreamArn} follow from its type. What cannot be resolved
 * (a log group no function names) is empty: such a grant matches no recorded request.
 */
final class Intrinsics {

    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{(!?)([^}]+)}");

    private final Map<String, Map<String, Object>> resources;
    private final Map<String, String> refs;
    private final Map<String, String> attributes;
    private final String partition;
    private final String region;
    private final String account;

    /**
     * @param resources the template's resources, by logical id
     * @param refs known {@code Ref} values, by logical id
     * @param attributes known {@code Fn::GetAtt} values, by {@code logicalId.Attribute}
     */
    Intrinsics(
            Map<String, Map<String, Object>> resources,
            Map<String, String> refs,
            Map<String, String> attributes,
            String partition,
            String region,
            String account) {
        this.resources = resources;
        this.refs = refs;
        this.attributes = attributes;
        this.partition = partition;
        this.region = region;
        this.account = account;
    }

    Optional<String> resolve(Object expression) {
        if (expression instanceof String s) {
            return Optional.of(s);
        }
        if (!(expression instanceof Map<?, ?> map) || map.size() != 1) {
            return Optional.empty();
        }
        Map.Entry<?, ?> e = map.entrySet().iterator().next();
        Object arg = e.getValue();
        return switch (String.valueOf(e.getKey())) {
            case "Ref" -> ref(String.valueOf(arg));
            case "Fn::GetAtt" -> getAtt(arg);
            case "Fn::Join" -> join(arg);
            case "Fn::Sub" -> sub(arg);
            case "Fn::Select" -> select(arg);
            default -> Optional.empty();
        };
    }

    /**
     * The ARN shape of a resource the expression names when its name is not known here (no environment variable of
     * the function names it): e.g. {@code arn:aws:states:<region>:<account>:stateMachine:*} for the stack's state
     * machine. Only a request that itself names its resource as a pattern (a task token's state machine) is matched
     * against it.
     */
    Optional<String> shape(Object expression) {
        if (!(expression instanceof Map<?, ?> map) || map.size() != 1) {
            return Optional.empty();
        }
        Map.Entry<?, ?> e = map.entrySet().iterator().next();
        String id = switch (String.valueOf(e.getKey())) {
            case "Ref" -> String.valueOf(e.getValue());
            case "Fn::GetAtt" ->
                e.getValue() instanceof List<?> l && l.size() == 2 && "Arn".equals(String.valueOf(l.get(1)))
                        ? String.valueOf(l.get(0))
                        : null;
            default -> null;
        };
        Map<String, Object> resource = id == null ? null : resources.get(id);
        if (resource == null) {
            return Optional.empty();
        }
        return "AWS::StepFunctions::StateMachine".equals(resource.get("Type"))
                ? Optional.of(arn("states", "stateMachine:*"))
                : Optional.empty();
    }

    private Optional<String> ref(String id) {
        return switch (id) {
            case "AWS::Partition" -> Optional.of(partition);
            case "AWS::Region" -> Optional.of(region);
            case "AWS::AccountId" -> Optional.of(account);
            case "AWS::URLSuffix" -> Optional.of("amazonaws.com");
            default -> Optional.ofNullable(refs.get(id));
        };
    }

    private Optional<String> getAtt(Object arg) {
        List<?> parts =
                arg instanceof List<?> l ? l : List.of(String.valueOf(arg).split("\\.", 2));
        if (parts.size() != 2) {
            return Optional.empty();
        }
        String id = String.valueOf(parts.get(0));
        String attribute = String.valueOf(parts.get(1));
        String known = attributes.get(id + "." + attribute);
        if (known != null) {
            return Optional.of(known);
        }
        Map<String, Object> resource = resources.get(id);
        if (resource == null) {
            return Optional.empty();
        }
        Optional<String> ref = Optional.ofNullable(refs.get(id));
        return switch (resource.get("Type") + "." + attribute) {
            case "AWS::DynamoDB::Table.Arn" -> ref.map(this::tableArn);
            // The stream label is a timestamp only the deployment knows.
            case "AWS::DynamoDB::Table.StreamArn" -> ref.map(name -> tableArn(name) + "/stream/*");
            case "AWS::SNS::Topic.TopicArn", "AWS::StepFunctions::StateMachine.Arn" -> ref;
            case "AWS::SNS::Topic.TopicName", "AWS::StepFunctions::StateMachine.Name" ->
                ref.map(arn -> arn.substring(arn.lastIndexOf(':') + 1));
            case "AWS::Lambda::Function.Arn" -> ref.map(name -> arn("lambda", "function:" + name));
            default -> Optional.empty();
        };
    }

    private Optional<String> join(Object arg) {
        if (!(arg instanceof List<?> l) || l.size() != 2 || !(l.get(1) instanceof List<?> parts)) {
            return Optional.empty();
        }
        List<String> resolved = new ArrayList<>();
        for (Object part : parts) {
            Optional<String> r = resolve(part);
            if (r.isEmpty()) {
                return Optional.empty();
            }
            resolved.add(r.get());
        }
        return Optional.of(String.join(String.valueOf(l.get(0)), resolved));
    }

    private Optional<String> sub(Object arg) {
        String template;
        Map<?, ?> variables = Map.of();
        if (arg instanceof String s) {
            template = s;
        } else if (arg instanceof List<?> l && l.size() == 2 && l.get(1) instanceof Map<?, ?> m) {
            template = String.valueOf(l.get(0));
            variables = m;
        } else {
            return Optional.empty();
        }
        Matcher m = SUB_VARIABLE.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String replacement;
            if (!m.group(1).isEmpty()) {
                replacement = "${" + m.group(2) + "}";
            } else {
                String name = m.group(2);
                Optional<String> value = variables.containsKey(name)
                        ? resolve(variables.get(name))
                        : name.contains(".") && !name.startsWith("AWS::") ? getAtt(name) : ref(name);
                if (value.isEmpty()) {
                    return Optional.empty();
                }
                replacement = value.get();
            }
            m.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        m.appendTail(out);
        return Optional.of(out.toString());
    }

    private Optional<String> select(Object arg) {
        if (!(arg instanceof List<?> l) || l.size() != 2) {
            return Optional.empty();
        }
        int index;
        try {
            index = Integer.parseInt(String.valueOf(l.get(0)));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
        List<String> items = new ArrayList<>();
        if (l.get(1) instanceof Map<?, ?> split
                && split.size() == 1
                && split.containsKey("Fn::Split")
                && split.get("Fn::Split") instanceof List<?> s
                && s.size() == 2) {
            Optional<String> source = resolve(s.get(1));
            if (source.isEmpty()) {
                return Optional.empty();
            }
            items.addAll(List.of(source.get().split(Pattern.quote(String.valueOf(s.get(0))), -1)));
        } else if (l.get(1) instanceof List<?> list) {
            for (Object item : list) {
                Optional<String> r = resolve(item);
                if (r.isEmpty()) {
                    return Optional.empty();
                }
                items.add(r.get());
            }
        } else {
            return Optional.empty();
        }
        return index >= 0 && index < items.size() ? Optional.of(items.get(index)) : Optional.empty();
    }

    private String tableArn(String name) {
        return arn("dynamodb", "table/" + name);
    }

    private String arn(String service, String resource) {
        return "arn:" + partition + ":" + service + ":" + region + ":" + account + ":" + resource;
    }

    /** How a report shows an expression: {@code ${Table.Arn}/index/GSI1} rather than nested JSON. */
    static String render(Object expression) {
        if (expression instanceof String s) {
            return s;
        }
        if (expression instanceof Map<?, ?> map && map.size() == 1) {
            Map.Entry<?, ?> e = map.entrySet().iterator().next();
            Object arg = e.getValue();
            switch (String.valueOf(e.getKey())) {
                case "Ref" -> {
                    return "${" + arg + "}";
                }
                case "Fn::GetAtt" -> {
                    return "${" + (arg instanceof List<?> l ? l.get(0) + "." + l.get(1) : arg) + "}";
                }
                case "Fn::Join" -> {
                    if (arg instanceof List<?> l && l.size() == 2 && l.get(1) instanceof List<?> parts) {
                        StringBuilder out = new StringBuilder();
                        for (int i = 0; i < parts.size(); i++) {
                            out.append(i == 0 ? "" : String.valueOf(l.get(0))).append(render(parts.get(i)));
                        }
                        return out.toString();
                    }
                }
                case "Fn::Sub" -> {
                    return arg instanceof List<?> l ? String.valueOf(l.get(0)) : String.valueOf(arg);
                }
                default -> {
                    // shown as JSON below
                }
            }
        }
        return String.valueOf(expression);
    }
}
