package dev.interlock.wiring;

import dev.interlock.log.StructuredLog;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.Lazy;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.runtime.outbound.GuardedHttp;
import dev.interlock.runtime.outbound.OutboundTemplates;
import dev.interlock.runtime.outbound.UrlGuard;
import dev.interlock.runtime.priming.OfflineMode;
import dev.interlock.store.Backoff;
import dev.interlock.store.Provider;
import dev.interlock.store.Retention;
import dev.interlock.store.dynamodb.DynamoDbProvider;
import dev.interlock.wiring.alert.AlertPublisher;
import dev.interlock.wiring.alert.RecordedAlerts;
import dev.interlock.wiring.alert.RoutedAlerts;
import dev.interlock.wiring.alert.SnsAlertPublisher;
import java.time.Clock;
import java.time.Duration;

/**
 * The shared runtime of every function, created once per container: configuration, clock, AWS clients, the
 * DynamoDB Provider and the alert publisher — each built on first use, none during class initialisation, so cold
 * start pays only for what a function touches and SnapStart snapshots hold no clock reading or randomness.
 */
public final class Deps implements AutoCloseable {

    private static final Object LOCK = new Object();
    private static volatile Deps shared;

    private final Environment environment;
    private final Clock clock;
    private final OfflineMode offline = new OfflineMode();
    private final AwsClients clients;
    private final Lazy<Provider> provider;
    private final Lazy<AlertPublisher> alerts;
    private final Lazy<GuardedHttp> outboundHttp;
    private final Lazy<OutboundTemplates> outboundTemplates;

    /** Deps over an explicit environment and clock (local runtime, tests). */
    public Deps(Environment environment, Clock clock) {
        this.environment = environment;
        this.clock = clock;
        this.clients = new AwsClients(environment, offline);
        this.provider = Lazy.of(() -> new DynamoDbProvider(
                clients.dynamoDb(),
                environment.get(EnvVar.TABLE_NAME),
                clock,
                retention(environment),
                Backoff.standard()));
        // For every function alike: a dry-run pipeline's alerts become its DRY_RUN_* events, a muted one's its
        // ALERT_MUTED events, and the rest carry the pipeline's owner, team, labels and runbook, are published, then
        // recorded as their day's ALERT_SENT events (the alert history of GET /alerts).
        this.alerts = Lazy.of(() -> new RoutedAlerts(
                new RecordedAlerts(
                        new SnsAlertPublisher(clients::sns, environment.get(EnvVar.ALERT_TOPIC_ARN)),
                        () -> provider.get().alertHistory(),
                        log("alerts")),
                () -> provider.get().pipelines(),
                () -> provider.get().mutes(),
                () -> provider.get().events(),
                log("alerts")));
        // Network budgets are wall time: the client sleeps between retries with Thread.sleep, so its deadline must be
        // measured on the same (real) clock. The business clock may run faster (the local runtime's --time-scale),
        // which would shrink a 30 s call budget to a few milliseconds and turn a retried 503 into a TIMEOUT.
        this.outboundHttp =
                Lazy.of(() -> GuardedHttp.create(UrlGuard.fromEnvironment(environment), Clock.systemUTC(), offline));
        this.outboundTemplates = Lazy.of(() -> OutboundTemplates.create(environment, clients));
    }

    /** The container's Deps, from the process environment, created on the first call. */
    public static Deps get() {
        Deps d = shared;
        if (d == null) {
            synchronized (LOCK) {
                d = shared;
                if (d == null) {
                    d = new Deps(Environment.system(), Clock.systemUTC());
                    shared = d;
                }
            }
        }
        return d;
    }

    /**
     * The container's Deps after checking, all at once, that every variable this function requires is set — a
     * misconfigured deployment fails its first invocation naming every missing variable.
     */
    public static Deps forFunction(InterlockFunction function) {
        Deps d = get();
        d.environment.requireFor(function);
        return d;
    }

    public Environment environment() {
        return environment;
    }

    public Clock clock() {
        return clock;
    }

    /**
     * Which threads are priming this runtime: every part built here that behaves differently while priming (the AWS
     * clients, outbound HTTP, credential reads, the loggers) was given it when built.
     */
    public OfflineMode offline() {
        return offline;
    }

    public AwsClients clients() {
        return clients;
    }

    public Provider provider() {
        return provider.get();
    }

    public AlertPublisher alerts() {
        return alerts.get();
    }

    /** Outbound HTTP through the URL guard ({@code INTERLOCK_ALLOW_PRIVATE_URLS}): evaluators, triggers, run checks. */
    public GuardedHttp outboundHttp() {
        return outboundHttp.get();
    }

    /**
     * Renders outbound requests from pipeline templates: execution values, and credentials resolved at call time
     * within the deployment's policy ({@code INTERLOCK_SECRET_HOSTS}, the secret and parameter prefixes).
     */
    public OutboundTemplates outboundTemplates() {
        return outboundTemplates.get();
    }

    /** A structured logger for one component, silent on a thread that is priming. */
    public StructuredLog log(String name) {
        return new StructuredLog(name, System.out, clock, offline::active);
    }

    /** Item lifetimes from the environment; the rest keep Retention.DEFAULT (docs/table-design.md). */
    static Retention retention(Environment env) {
        Duration keep = Duration.ofDays(env.getInt(EnvVar.RETENTION_DAYS));
        Duration runLogs = Duration.ofDays(env.getInt(EnvVar.RUN_LOG_TTL_DAYS));
        Retention d = Retention.DEFAULT;
        return new Retention(keep, runLogs, keep, d.markers(), d.lateArrivals(), d.reruns(), d.alertDedup());
    }

    @Override
    public void close() {
        clients.close();
    }
}
