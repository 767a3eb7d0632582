package dev.interlock.bench.cost;

/**
 * The AWS list prices a run is costed at: the one place they are written down. us-east-1, on-demand, no free tier
 * (a platform running thousands of pipelines is past every free tier), as published on each service's pricing page
 * and read on {@link #READ_ON}. A price change is a change here, with the new date; {@code benchmarks/README.md} says
 * which price each number uses and why.
 *
 * @param transitionUsd Step Functions Standard workflows, per state transition ($0.025 per 1,000)
 * @param lambdaRequestUsd Lambda, per request ($0.20 per million, x86 and arm64 alike)
 * @param lambdaGbSecondUsd Lambda duration per GB-second for the architecture the stack deploys (arm64:
 *         $0.0000133334, first pricing tier; x86_64 would be $0.0000166667)
 * @param readRequestUnitUsd DynamoDB on-demand, per read request unit ($0.125 per million since the November 2024
 *         price cut; $0.25 before)
 * @param writeRequestUnitUsd DynamoDB on-demand, per write request unit ($0.625 per million since the November 2024
 *         price cut; $1.25 before)
 * @param snsPublishUsd SNS standard topic, per publish request of up to 64 KB ($0.50 per million; deliveries to the
 *         subscribers are priced by their protocol and are not counted)
 * @param apiRequestUsd API Gateway REST API, per request ($3.50 per million, first tier): the one API call that starts
 *         a measured run
 * @param alarmMonthUsd CloudWatch, per standard-resolution alarm metric and month ($0.10)
 * @param dashboardMonthUsd CloudWatch, per dashboard and month ($3.00; the free tier's three per account not counted)
 * @param webAclMonthUsd AWS WAF, per web ACL and month ($5.00)
 * @param wafRuleMonthUsd AWS WAF, per rule of a web ACL and month ($1.00)
 * @param logIngestedGbUsd CloudWatch Logs, per GB ingested as standard logs ($0.50)
 * @param traceUsd X-Ray, per trace recorded ($5.00 per million)
 * @param tableGbMonthUsd DynamoDB Standard table class, storage per GB-month ($0.25)
 * @param pitrGbMonthUsd DynamoDB continuous backups (point-in-time recovery), per GB-month of table ($0.20)
 */
public record ListPrices(
        double transitionUsd,
        double lambdaRequestUsd,
        double lambdaGbSecondUsd,
        double readRequestUnitUsd,
        double writeRequestUnitUsd,
        double snsPublishUsd,
        double apiRequestUsd,
        double alarmMonthUsd,
        double dashboardMonthUsd,
        double webAclMonthUsd,
        double wafRuleMonthUsd,
        double logIngestedGbUsd,
        double traceUsd,
        double tableGbMonthUsd,
        double pitrGbMonthUsd) {

    /** When the prices below were read from the AWS pricing pages. */
    public static final String READ_ON = "2026-11-23";

    /**
     * The prices of the idle stack (alarms, WAF, logs, X-Ray, storage) were added on this date from the published
     * us-east-1 list prices as the author knew them, without reaching the pricing pages (no network here): check them
     * there before quoting the monthly figure.
     */
    public static final String FIXED_PRICES_AS_OF = "2026-11-29";

    /** us-east-1 list prices, Lambda on arm64 (the stack's {@code Architecture.ARM_64}), DynamoDB on-demand. */
    public static final ListPrices US_EAST_1 = new ListPrices(
            0.025 / 1_000,
            0.20 / 1_000_000,
            0.0000133334,
            0.125 / 1_000_000,
            0.625 / 1_000_000,
            0.50 / 1_000_000,
            3.50 / 1_000_000,
            0.10,
            3.00,
            5.00,
            1.00,
            0.50,
            5.00 / 1_000_000,
            0.25,
            0.20);
}
