package dev.interlock.infra;

import dev.interlock.model.runtime.InterlockFunction;
import io.github.cdklabs.cdknag.NagPackSuppression;
import java.util.Locale;
import software.amazon.awscdk.services.logs.RetentionDays;

/** What every part of the stack names and writes the same way: construct ids, log retention, cdk-nag reasons. */
final class StackConventions {

    private StackConventions() {}

    /** {@code run-checker} → {@code RunChecker}: construct ids and the ASL placeholder stems. */
    static String pascal(InterlockFunction f) {
        StringBuilder out = new StringBuilder();
        for (String part : f.moduleName().toLowerCase(Locale.ROOT).split("[-_]")) {
            out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return out.toString();
    }

    /** A cdk-nag suppression; the reason is what a reviewer reads in the template and the nag report. */
    static NagPackSuppression suppression(String id, String reason) {
        return NagPackSuppression.builder().id(id).reason(reason).build();
    }

    static RetentionDays retention(int days) {
        return switch (days) {
            case 1 -> RetentionDays.ONE_DAY;
            case 3 -> RetentionDays.THREE_DAYS;
            case 5 -> RetentionDays.FIVE_DAYS;
            case 7 -> RetentionDays.ONE_WEEK;
            case 14 -> RetentionDays.TWO_WEEKS;
            case 30 -> RetentionDays.ONE_MONTH;
            case 60 -> RetentionDays.TWO_MONTHS;
            case 90 -> RetentionDays.THREE_MONTHS;
            case 120 -> RetentionDays.FOUR_MONTHS;
            case 150 -> RetentionDays.FIVE_MONTHS;
            case 180 -> RetentionDays.SIX_MONTHS;
            case 365 -> RetentionDays.ONE_YEAR;
            case 400 -> RetentionDays.THIRTEEN_MONTHS;
            case 545 -> RetentionDays.EIGHTEEN_MONTHS;
            case 731 -> RetentionDays.TWO_YEARS;
            case 1096 -> RetentionDays.THREE_YEARS;
            case 1827 -> RetentionDays.FIVE_YEARS;
            case 2192 -> RetentionDays.SIX_YEARS;
            case 2557 -> RetentionDays.SEVEN_YEARS;
            case 2922 -> RetentionDays.EIGHT_YEARS;
            case 3288 -> RetentionDays.NINE_YEARS;
            case 3653 -> RetentionDays.TEN_YEARS;
            default -> throw new IllegalArgumentException("CloudWatch Logs has no retention of " + days + " days");
        };
    }
}
