package dev.interlock.model.lineage;

import java.util.regex.Pattern;

/**
 * The EventBridge bus a deployment may put its OpenLineage run events on ({@code OPENLINEAGE_EVENT_BUS}, CDK context
 * {@code openLineageEventBus}; docs/openlineage.md): the one home of what such a value may be, which the stream router
 * checks at start and the CDK app at synth.
 */
public final class LineageEventBus {

    /** A bus name (EventBridge's pattern: letters, digits, {@code . - _ /}), or a bus ARN. */
    public static final Pattern NAME_OR_ARN = Pattern.compile(
            "[/.\\-_A-Za-z0-9]{1,256}|arn:aws[a-z-]*:events:[a-z0-9-]+:\\d{12}:event-bus/[/.\\-_A-Za-z0-9]{1,256}");

    private LineageEventBus() {}

    /** Whether {@code value} names a bus as PutEvents takes it. */
    public static boolean valid(String value) {
        return value != null && NAME_OR_ARN.matcher(value).matches();
    }
}
