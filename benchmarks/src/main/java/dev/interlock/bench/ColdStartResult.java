package dev.interlock.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** What the benchmark learnt about one jar: its size and every measured cold start, or why it has none. */
final class ColdStartResult {

    enum Status {
        MEASURED,
        MISSING,
        FAILED
    }

    private final Scenario scenario;
    private final long jarBytes;
    private final List<ColdStartLauncher.Measurement> runs = new ArrayList<>();
    private Status status;
    private String reason = "";

    ColdStartResult(Scenario scenario, long jarBytes, Status status, String reason) {
        this.scenario = scenario;
        this.jarBytes = jarBytes;
        this.status = status;
        this.reason = reason;
    }

    Scenario scenario() {
        return scenario;
    }

    long jarBytes() {
        return jarBytes;
    }

    /** Decimal megabytes, as the size goal and the docs count them. */
    double jarMegabytes() {
        return jarBytes / 1e6;
    }

    Status status() {
        return status;
    }

    String reason() {
        return reason;
    }

    List<ColdStartLauncher.Measurement> runs() {
        return List.copyOf(runs);
    }

    void add(ColdStartLauncher.Measurement run) {
        runs.add(run);
    }

    void fail(String why) {
        status = Status.FAILED;
        reason = why;
    }

    boolean measurable() {
        return status == Status.MEASURED;
    }

    double median() {
        return percentile(ColdStartLauncher.Measurement::totalMillis, 50);
    }

    double p90() {
        return percentile(ColdStartLauncher.Measurement::totalMillis, 90);
    }

    double medianInit() {
        return percentile(ColdStartLauncher.Measurement::initMillis, 50);
    }

    double medianInvoke() {
        return percentile(ColdStartLauncher.Measurement::invokeMillis, 50);
    }

    /** Nearest-rank percentile (the median of an even count is the mean of the middle two); NaN without runs. */
    private double percentile(ToDoubleFunction<ColdStartLauncher.Measurement> value, int p) {
        double[] sorted = runs.stream().mapToDouble(value).sorted().toArray();
        if (sorted.length == 0) {
            return Double.NaN;
        }
        if (p == 50 && sorted.length % 2 == 0) {
            return (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }
}
