package dev.interlock.local.stream;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.interlock.model.runtime.TableDefinition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import software.amazon.awssdk.services.dynamodb.model.ExpiredIteratorException;
import software.amazon.awssdk.services.dynamodb.model.GetRecordsResponse;
import software.amazon.awssdk.services.dynamodb.model.Record;
import software.amazon.awssdk.services.dynamodb.model.Shard;
import software.amazon.awssdk.services.dynamodb.model.ShardIteratorType;
import software.amazon.awssdk.services.dynamodb.model.TrimmedDataAccessException;
import software.amazon.awssdk.services.dynamodb.streams.DynamoDbStreamsClient;

/**
 * The local stand-in for Lambda's DynamoDB event-source mapping: reads the table's stream, keeps only what the
 * mapping's filter keeps (INSERTs of marker items), delivers batches to the stream router, honours partial batch
 * failures by retrying only the failed records (bounded, with backoff), sends records that keep failing to a
 * dead-letter consumer (the on-failure destination), and checkpoints each shard so nothing is skipped or
 * delivered again after a restart.
 */
public final class StreamPoller implements AutoCloseable {

    /** The function behind the mapping (the stream router). */
    @FunctionalInterface
    public interface BatchHandler {
        StreamsEventResponse handle(DynamodbEvent batch) throws Exception;
    }

    /** Waits between retries; tests pass one that does not wait. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    /**
     * Mapping settings, mirroring the CDK event-source mapping.
     *
     * @param runChanges whether run-state changes pass the filter too (the deployment emits OpenLineage)
     */
    public record Settings(
            int batchSize, int maxRetries, Duration retryBackoff, Duration idlePoll, boolean runChanges) {
        public static final Settings DEFAULT = new Settings(10, 3, Duration.ofMillis(200), Duration.ofMillis(100));

        /** Marker inserts only. */
        public Settings(int batchSize, int maxRetries, Duration retryBackoff, Duration idlePoll) {
            this(batchSize, maxRetries, retryBackoff, idlePoll, false);
        }
    }

    /** A record that failed every attempt. */
    public record DeadLetter(
            String shardId, String sequenceNumber, String reason, DynamodbEvent.DynamodbStreamRecord record) {}

    private final DynamoDbStreamsClient streams;
    private final String streamArn;
    private final TableDefinition table;
    private final StreamRecordConverter converter;
    private final BatchHandler handler;
    private final Checkpoints checkpoints;
    private final Settings settings;
    private final Consumer<DeadLetter> deadLetters;
    private final Sleeper sleeper;
    private final Map<String, String> iterators = new HashMap<>();
    private volatile Consumer<Record> observer = record -> {};
    private final Set<String> closedShards = new HashSet<>();
    private ScheduledExecutorService loop;

    public StreamPoller(
            DynamoDbStreamsClient streams,
            String streamArn,
            TableDefinition table,
            StreamRecordConverter converter,
            BatchHandler handler,
            Checkpoints checkpoints,
            Settings settings,
            Consumer<DeadLetter> deadLetters,
            Sleeper sleeper) {
        this.streams = streams;
        this.streamArn = streamArn;
        this.table = table;
        this.converter = converter;
        this.handler = handler;
        this.checkpoints = checkpoints;
        this.settings = settings;
        this.deadLetters = deadLetters;
        this.sleeper = sleeper;
    }

    /**
     * Shows every record read from the stream, before the mapping's filter, to {@code observer} (what {@code interlock
     * up} narrates); it runs on the poller's thread and its failures are only reported, never retried.
     */
    public void observeEveryRecord(Consumer<Record> observer) {
        this.observer = observer;
    }

    /** Polls in the background until closed. */
    public synchronized void start() {
        if (loop != null) {
            return;
        }
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "stream-poller");
            t.setDaemon(true);
            return t;
        });
        loop.scheduleWithFixedDelay(
                () -> {
                    try {
                        pollOnce();
                    } catch (RuntimeException e) {
                        System.err.println("stream poller: poll failed, retrying at the next tick: " + e);
                    }
                },
                0,
                settings.idlePoll().toMillis(),
                TimeUnit.MILLISECONDS);
    }

    /**
     * Reads every shard up to its current end once and delivers what matches. Returns how many records were
     * delivered to the handler (filtered-out records are checkpointed but not counted).
     */
    public synchronized int pollOnce() {
        int delivered = 0;
        List<Shard> shards = streams.describeStream(b -> b.streamArn(streamArn))
                .streamDescription()
                .shards();
        for (Shard shard : shards) {
            if (closedShards.contains(shard.shardId())) {
                continue;
            }
            delivered += drain(shard.shardId());
        }
        return delivered;
    }

    private int drain(String shardId) {
        int delivered = 0;
        while (true) {
            GetRecordsResponse page;
            try {
                page = streams.getRecords(
                        b -> b.shardIterator(iterator(shardId)).limit(1000));
            } catch (ExpiredIteratorException | TrimmedDataAccessException e) {
                iterators.remove(shardId);
                page = streams.getRecords(
                        b -> b.shardIterator(iterator(shardId)).limit(1000));
            }
            List<Record> records = page.records();
            for (Record r : records) {
                try {
                    observer.accept(r);
                } catch (RuntimeException e) {
                    System.err.println(
                            "stream poller: observer failed on " + r.dynamodb().sequenceNumber() + ": " + e);
                }
            }
            for (int i = 0; i < records.size(); i += settings.batchSize()) {
                List<Record> chunk = records.subList(i, Math.min(records.size(), i + settings.batchSize()));
                delivered += deliver(shardId, chunk);
                checkpoints.markDone(shardId, chunk.getLast().dynamodb().sequenceNumber());
            }
            if (page.nextShardIterator() == null) {
                closedShards.add(shardId);
                iterators.remove(shardId);
                return delivered;
            }
            iterators.put(shardId, page.nextShardIterator());
            if (records.isEmpty()) {
                return delivered;
            }
        }
    }

    private String iterator(String shardId) {
        String cached = iterators.get(shardId);
        if (cached != null) {
            return cached;
        }
        String it = checkpoints
                .lastDone(shardId)
                .map(seq -> streams.getShardIterator(b -> b.streamArn(streamArn)
                                .shardId(shardId)
                                .shardIteratorType(ShardIteratorType.AFTER_SEQUENCE_NUMBER)
                                .sequenceNumber(seq))
                        .shardIterator())
                .orElseGet(() -> streams.getShardIterator(b -> b.streamArn(streamArn)
                                .shardId(shardId)
                                .shardIteratorType(ShardIteratorType.TRIM_HORIZON))
                        .shardIterator());
        iterators.put(shardId, it);
        return it;
    }

    /** Delivers the matching records of one chunk, retrying only failed ones; returns how many were delivered. */
    private int deliver(String shardId, List<Record> chunk) {
        List<DynamodbEvent.DynamodbStreamRecord> pending = new ArrayList<>();
        for (Record r : chunk) {
            var keys = r.dynamodb().keys();
            String sk = keys == null || keys.get(table.sortKey()) == null
                    ? null
                    : keys.get(table.sortKey()).s();
            String pk = keys == null || keys.get(table.partitionKey()) == null
                    ? null
                    : keys.get(table.partitionKey()).s();
            if (table.isMarkerInsert(r.eventNameAsString(), sk)
                    || (settings.runChanges() && table.isRunChange(r.eventNameAsString(), pk, sk))) {
                pending.add(converter.toRecord(r));
            }
        }
        int delivered = pending.size();
        String lastError = null;
        for (int attempt = 0; !pending.isEmpty() && attempt <= settings.maxRetries(); attempt++) {
            if (attempt > 0) {
                pause(settings.retryBackoff().multipliedBy(1L << Math.min(attempt - 1, 10)));
            }
            DynamodbEvent batch = new DynamodbEvent();
            batch.setRecords(List.copyOf(pending));
            Set<String> failed = new HashSet<>();
            try {
                StreamsEventResponse response = handler.handle(batch);
                if (response != null && response.getBatchItemFailures() != null) {
                    response.getBatchItemFailures().forEach(f -> failed.add(f.getItemIdentifier()));
                }
                lastError = "reported in batchItemFailures";
            } catch (Exception e) {
                pending.forEach(r -> failed.add(r.getDynamodb().getSequenceNumber()));
                lastError = e.toString();
            }
            pending.removeIf(r -> !failed.contains(r.getDynamodb().getSequenceNumber()));
        }
        for (DynamodbEvent.DynamodbStreamRecord r : pending) {
            deadLetters.accept(new DeadLetter(shardId, r.getDynamodb().getSequenceNumber(), lastError, r));
        }
        return delivered;
    }

    private void pause(Duration d) {
        try {
            sleeper.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("stream poller interrupted", e);
        }
    }

    @Override
    public synchronized void close() {
        if (loop != null) {
            loop.shutdownNow();
            try {
                loop.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            loop = null;
        }
    }
}
