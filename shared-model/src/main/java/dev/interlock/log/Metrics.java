package dev.interlock.log;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Publishes {@link Metric}s as CloudWatch embedded-metric-format (EMF) lines on standard output, where Lambda's log
 * group turns them into metrics: one JSON object per line with an {@code _aws.CloudWatchMetrics} directive (namespace
 * {@value Metric#NAMESPACE}, dimension sets {@code [PipelineId]} and {@code []} — per pipeline and the fleet's
 * aggregate; alerts add {@code [PipelineId, AlertKind]} and {@code [AlertKind]}), the values and the
 * {@link LogContext} fields as searchable properties. Written by hand with Jackson's streaming generator, like
 * {@link StructuredLog}: the {@code aws-embedded-metrics} library costs about a second of cold start and 0.9 MB of
 * jar the trigger does not have (docs/metrics.md). A metric never fails the work it describes: any fault writing one
 * is swallowed. Silent on a thread that is priming.
 */
public final class Metrics {

    private static final JsonFactory JSON = new JsonFactory();

    /** Publishes nothing (tests, tools). */
    public static final Metrics NONE = new Metrics(null, Clock.systemUTC(), () -> true);

    private final PrintStream out;
    private final Clock clock;
    private final BooleanSupplier muted;

    public Metrics(PrintStream out, Clock clock, BooleanSupplier muted) {
        this.out = out;
        this.clock = clock;
        this.muted = muted;
    }

    /** Metrics on standard output with {@code clock}. */
    public static Metrics stdout(Clock clock) {
        return new Metrics(System.out, clock, () -> false);
    }

    /** One metric of the context's pipeline. */
    public void put(LogContext ctx, Metric metric, double value) {
        put(ctx, Map.of(metric, value));
    }

    /** Several metrics of the context's pipeline, in one line. */
    public void put(LogContext ctx, Map<Metric, Double> values) {
        publish(ctx, null, values);
    }

    /** One alert of {@code kind} about the context's pipeline. */
    public void alert(LogContext ctx, String kind) {
        publish(ctx, kind, Map.of(Metric.ALERTS, 1.0));
    }

    private void publish(LogContext ctx, String alertKind, Map<Metric, Double> values) {
        try {
            if (out == null || values.isEmpty() || muted.getAsBoolean()) {
                return;
            }
            out.println(render(ctx, alertKind, values));
        } catch (RuntimeException e) {
            // A metric is an observation: losing one must not fail the round, trigger or alert it describes.
        }
    }

    /** The EMF line; exposed for tests. */
    public String render(LogContext ctx, String alertKind, Map<Metric, Double> values) {
        String pipeline = ctx == null ? null : ctx.pipelineId();
        boolean perPipeline = pipeline != null && !pipeline.isEmpty();
        boolean byKind = alertKind != null && !alertKind.isEmpty();
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            g.writeObjectFieldStart("_aws");
            g.writeNumberField("Timestamp", clock.millis());
            g.writeArrayFieldStart("CloudWatchMetrics");
            g.writeStartObject();
            g.writeStringField("Namespace", Metric.NAMESPACE);
            g.writeArrayFieldStart("Dimensions");
            if (perPipeline) {
                g.writeStartArray();
                g.writeString(Metric.PIPELINE_ID);
                if (byKind) {
                    g.writeString(Metric.ALERT_KIND);
                }
                g.writeEndArray();
            }
            g.writeStartArray();
            if (byKind) {
                g.writeString(Metric.ALERT_KIND);
            }
            g.writeEndArray();
            g.writeEndArray();
            g.writeArrayFieldStart("Metrics");
            for (Metric m : values.keySet()) {
                g.writeStartObject();
                g.writeStringField("Name", m.metricName());
                g.writeStringField("Unit", m.unit().cloudWatchName());
                g.writeEndObject();
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeEndArray();
            g.writeEndObject();
            if (perPipeline) {
                g.writeStringField(Metric.PIPELINE_ID, pipeline);
            }
            if (byKind) {
                g.writeStringField(Metric.ALERT_KIND, alertKind);
            }
            for (Map.Entry<Metric, Double> e : values.entrySet()) {
                g.writeNumberField(e.getKey().metricName(), e.getValue());
            }
            if (ctx != null) {
                for (Map.Entry<String, String> e : ctx.fields().entrySet()) {
                    if (!e.getKey().equals("pipelineId")) {
                        g.writeStringField(e.getKey(), e.getValue());
                    }
                }
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    /** An ordered map of values, for {@link #put(LogContext, Map)}. */
    public static Map<Metric, Double> values(Object... metricsAndValues) {
        Map<Metric, Double> m = new LinkedHashMap<>();
        for (int i = 0; i + 1 < metricsAndValues.length; i += 2) {
            m.put((Metric) metricsAndValues[i], ((Number) metricsAndValues[i + 1]).doubleValue());
        }
        return m;
    }
}
