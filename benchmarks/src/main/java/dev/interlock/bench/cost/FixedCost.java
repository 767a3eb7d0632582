package dev.interlock.bench.cost;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the deployed stack costs in a month in which no pipeline runs, read from its synthesized CloudFormation
 * template: the resources billed by the month (CloudWatch alarms, the WAF web ACL and its rules) and the scheduled
 * rules' invocations (the watchdog tick), each tick priced at what one measured idle tick used. Every resource type
 * of the template must be one this class prices or one {@link #FREE_WHEN_IDLE} names, so a new resource type fails
 * here until someone decides what it costs.
 *
 * @param items one line per billed thing
 * @param perGbMonthUsd what each GB the table holds adds per month (storage and point-in-time recovery), not in the
 *         total: the data is the user's
 */
public record FixedCost(List<Item> items, double perGbMonthUsd) {

    /** Average hours in a month (365.25 × 24 / 12), as AWS prices by the month. */
    public static final double HOURS_PER_MONTH = 730.5;

    /**
     * Lambda writes START, END and REPORT lines for every invocation besides the function's own; about this many bytes
     * (the REPORT line with its X-Ray and restore fields is the longest).
     */
    static final int PLATFORM_LOG_BYTES_PER_INVOCATION = 400;

    /**
     * Resource types that cost nothing while nothing runs: billed per request, per execution, per message or not at
     * all (IAM, the API's structure, AWS managed KMS keys). Their traffic is in the cost of a run.
     */
    static final Set<String> FREE_WHEN_IDLE = Set.of(
            "AWS::ApiGateway::Account",
            "AWS::ApiGateway::ApiKey",
            "AWS::ApiGateway::Deployment",
            "AWS::ApiGateway::Method",
            "AWS::ApiGateway::RequestValidator",
            "AWS::ApiGateway::Resource",
            "AWS::ApiGateway::RestApi",
            "AWS::ApiGateway::Stage",
            "AWS::ApiGateway::UsagePlan",
            "AWS::ApiGateway::UsagePlanKey",
            "AWS::CDK::Metadata",
            "AWS::DynamoDB::Table",
            "AWS::IAM::Policy",
            "AWS::IAM::Role",
            "AWS::Lambda::Alias",
            "AWS::Lambda::EventSourceMapping",
            "AWS::Lambda::Function",
            "AWS::Lambda::Permission",
            "AWS::Lambda::Version",
            "AWS::Logs::LogGroup",
            "AWS::SNS::Topic",
            "AWS::SNS::TopicPolicy",
            "AWS::SQS::Queue",
            "AWS::SQS::QueuePolicy",
            "AWS::StepFunctions::StateMachine",
            "AWS::WAFv2::WebACLAssociation");

    private static final Pattern RATE = Pattern.compile("rate\\((\\d+) (minute|minutes|hour|hours|day|days)\\)");

    /** One billed thing: how many a month, at what price each. */
    public record Item(String what, double perMonth, double unitUsd) {
        public double usd() {
            return perMonth * unitUsd;
        }
    }

    /**
     * What idle watchdog ticks used, measured: their usage and the bytes their function logged, over {@code count}
     * ticks.
     */
    public record Tick(Usage usage, double logBytes, int count) {
        public Tick {
            if (count < 1) {
                throw new IllegalArgumentException("at least one tick, got " + count);
            }
        }
    }

    public double totalUsd() {
        return items.stream().mapToDouble(Item::usd).sum();
    }

    /**
     * The fixed monthly cost of {@code template} at {@code prices}, each scheduled invocation priced as {@code tick}.
     *
     * @throws IllegalArgumentException naming every resource type nobody priced, or a schedule it cannot read
     */
    public static FixedCost of(JsonNode template, Tick tick, ListPrices prices) {
        Set<String> unpriced = new TreeSet<>();
        int alarmMetrics = 0;
        int dashboards = 0;
        int webAcls = 0;
        int wafRules = 0;
        double invocationsPerMonth = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        template.path("Resources").fields();
                it.hasNext(); ) {
            JsonNode resource = it.next().getValue();
            String type = resource.path("Type").asText();
            JsonNode props = resource.path("Properties");
            switch (type) {
                case "AWS::CloudWatch::Alarm" -> alarmMetrics += alarmMetrics(props);
                case "AWS::CloudWatch::Dashboard" -> dashboards++;
                case "AWS::WAFv2::WebACL" -> {
                    webAcls++;
                    wafRules += props.path("Rules").size();
                }
                case "AWS::Events::Rule" -> {
                    if (props.has("ScheduleExpression")) {
                        invocationsPerMonth +=
                                perMonth(props.path("ScheduleExpression").asText())
                                        * props.path("Targets").size();
                    }
                }
                default -> {
                    if (!FREE_WHEN_IDLE.contains(type)) {
                        unpriced.add(type);
                    }
                }
            }
        }
        if (!unpriced.isEmpty()) {
            throw new IllegalArgumentException("resource types nobody priced (FixedCost): " + unpriced);
        }
        Usage u = tick.usage();
        // Per scheduled invocation: the measured ticks' usage shared among them.
        double factor = invocationsPerMonth / tick.count();
        // DynamoDB Local reports no unit for a read that finds nothing, AWS bills a minimum per request (half a unit
        // for an eventually consistent read, one for a strongly consistent one): requests the write units do not
        // cover are counted as one read unit each, an upper bound.
        double readUnits = Math.max(u.readUnits(), u.dynamoDbRequests() - u.writeUnits());
        List<Item> items = new ArrayList<>();
        items.add(new Item("CloudWatch alarm metrics", alarmMetrics, prices.alarmMonthUsd()));
        items.add(new Item("CloudWatch dashboards", dashboards, prices.dashboardMonthUsd()));
        items.add(new Item("WAF web ACLs", webAcls, prices.webAclMonthUsd()));
        items.add(new Item("WAF rules", wafRules, prices.wafRuleMonthUsd()));
        items.add(new Item(
                "scheduled invocations: Lambda requests", factor * u.lambdaInvocations(), prices.lambdaRequestUsd()));
        items.add(new Item("scheduled invocations: Lambda GB-s", factor * u.gbSeconds(), prices.lambdaGbSecondUsd()));
        items.add(new Item(
                "scheduled invocations: DynamoDB read units", factor * readUnits, prices.readRequestUnitUsd()));
        items.add(new Item(
                "scheduled invocations: DynamoDB write units", factor * u.writeUnits(), prices.writeRequestUnitUsd()));
        items.add(new Item(
                "scheduled invocations: log GB ingested",
                factor * (tick.logBytes() + PLATFORM_LOG_BYTES_PER_INVOCATION * u.lambdaInvocations()) / 1e9,
                prices.logIngestedGbUsd()));
        items.add(new Item("scheduled invocations: X-Ray traces", invocationsPerMonth, prices.traceUsd()));
        return new FixedCost(List.copyOf(items), prices.tableGbMonthUsd() + prices.pitrGbMonthUsd());
    }

    /** A metric alarm is one metric; a metric-math alarm is billed per metric it reads. */
    private static int alarmMetrics(JsonNode props) {
        if (!props.has("Metrics")) {
            return 1;
        }
        int n = 0;
        for (JsonNode metric : props.path("Metrics")) {
            if (metric.has("MetricStat")) {
                n++;
            }
        }
        return n;
    }

    /** How often a {@code rate(…)} schedule fires in a month. */
    static double perMonth(String scheduleExpression) {
        Matcher m = RATE.matcher(scheduleExpression.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("cannot price the schedule " + scheduleExpression);
        }
        double every = Double.parseDouble(m.group(1));
        double hours = switch (m.group(2)) {
            case "minute", "minutes" -> every / 60;
            case "hour", "hours" -> every;
            default -> every * 24;
        };
        return HOURS_PER_MONTH / hours;
    }
}
