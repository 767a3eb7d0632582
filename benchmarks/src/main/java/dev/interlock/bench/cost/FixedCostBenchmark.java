package dev.interlock.bench.cost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.local.runtime.ProductionFunctions;
import dev.interlock.local.runtime.RuntimeOptions;
import dev.interlock.model.json.InterlockJson;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The stack's fixed monthly cost, what it costs with no pipeline run (a benchmark, never a test): it reads the
 * synthesized template ({@code cdk synth}) for what is billed by the month and what runs on a schedule, measures idle
 * watchdog ticks on the local runtime (the production orchestrator, DynamoDB Local, no pipeline registered), and
 * prices both with {@link FixedCost} at {@link ListPrices#US_EAST_1}. See {@code benchmarks/README.md}.
 */
public final class FixedCostBenchmark {

    private FixedCostBenchmark() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        for (String arg : args) {
            int eq = arg.indexOf('=');
            options.put(arg.substring(2, eq), arg.substring(eq + 1));
        }
        Path templatePath = Path.of(options.get("template"));
        int ticks = Integer.parseInt(options.getOrDefault("ticks", "20"));
        Path json = Path.of(options.getOrDefault("json", "target/fixed-cost.json"));
        PrintStream report = System.out;
        if (!Files.isRegularFile(templatePath)) {
            report.println("Fixed monthly cost: no template at " + templatePath
                    + "; synthesize it first: (cd infra-cdk && npm ci && npx cdk synth --quiet)");
            System.exit(1);
        }
        JsonNode template = InterlockJson.json().readTree(templatePath.toFile());

        // The functions log a JSON line per action to stdout: count those bytes, they are CloudWatch Logs ingestion.
        AtomicLong logBytes = new AtomicLong();
        Path functionLog = json.resolveSibling("fixed-cost-functions.log");
        Files.createDirectories(functionLog.toAbsolutePath().getParent());
        OutputStream file = Files.newOutputStream(functionLog);
        System.setOut(new PrintStream(
                new OutputStream() {
                    @Override
                    public void write(int b) throws java.io.IOException {
                        logBytes.incrementAndGet();
                        file.write(b);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws java.io.IOException {
                        logBytes.addAndGet(len);
                        file.write(b, off, len);
                    }
                },
                true));

        FixedCost.Tick tick;
        // The runtime's own watchdog and sweep stay out of the measured window: only the ticks called here count.
        RuntimeOptions runtime = RuntimeOptions.ephemeral(null, 1.0)
                .withWatchdogInterval(Duration.ofDays(365))
                .withSweepInterval(Duration.ofDays(365));
        try (LocalRuntime rt = LocalRuntime.start(
                runtime, new MeteredFunctions(new ProductionFunctions(), Meter.GLOBAL), s -> {}, alert -> {})) {
            rt.awaitHealthy(Duration.ofSeconds(120));
            // Unmeasured: the first tick on a table lists and adopts what is registered (once per table), and loads
            // the classes (SnapStart's restore on AWS).
            rt.watchdogTick();
            rt.watchdogTick();
            Meter.GLOBAL.reset();
            logBytes.set(0);
            for (int i = 0; i < ticks; i++) {
                rt.watchdogTick();
            }
            tick = new FixedCost.Tick(Usage.of(Meter.GLOBAL.read(), 0, 0), logBytes.get(), ticks);
        }

        ListPrices prices = ListPrices.US_EAST_1;
        FixedCost cost = FixedCost.of(template, tick, prices);
        report.println();
        report.printf(
                "Fixed monthly cost, no pipeline running (template %s; %d idle watchdog ticks measured: %.1f ms billed,"
                        + " %.1f DynamoDB requests, %.0f log bytes each; us-east-1 list prices as of %s)%n",
                templatePath.getFileName(),
                ticks,
                tick.usage().gbSeconds() / ticks * 1000 * 1024 / orchestratorMemoryMb(),
                (double) tick.usage().dynamoDbRequests() / ticks,
                tick.logBytes() / ticks,
                ListPrices.FIXED_PRICES_AS_OF);
        report.printf("%-45s %14s %12s %10s%n", "item", "per month", "unit $", "$ / month");
        for (FixedCost.Item item : cost.items()) {
            report.printf("%-45s %14.3f %12.8f %10.4f%n", item.what(), item.perMonth(), item.unitUsd(), item.usd());
        }
        report.printf("%-45s %14s %12s %10.2f%n", "total", "", "", cost.totalUsd());
        report.printf(
                "plus per GB the table holds: $%.2f a month (storage $%.2f + point-in-time recovery $%.2f)%n",
                cost.perGbMonthUsd(), prices.tableGbMonthUsd(), prices.pitrGbMonthUsd());

        ObjectNode out = InterlockJson.json().createObjectNode();
        out.put("pricesAsOf", ListPrices.FIXED_PRICES_AS_OF);
        out.put("template", templatePath.toAbsolutePath().toString());
        out.set("tick", InterlockJson.json().valueToTree(tick));
        out.set("items", InterlockJson.json().valueToTree(cost.items()));
        out.put("totalUsd", cost.totalUsd());
        out.put("perGbMonthUsd", cost.perGbMonthUsd());
        Files.writeString(
                json, InterlockJson.json().writerWithDefaultPrettyPrinter().writeValueAsString(out));
        report.println("  (JSON: " + json.toAbsolutePath() + ")");
        file.close();
        System.exit(0);
    }

    private static int orchestratorMemoryMb() {
        return dev.interlock.infra.FunctionProfile.of(dev.interlock.model.runtime.InterlockFunction.ORCHESTRATOR)
                .memoryMb();
    }
}
