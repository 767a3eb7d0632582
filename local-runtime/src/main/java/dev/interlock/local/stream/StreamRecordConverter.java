package dev.interlock.local.stream;

import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.AttributeValue;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamRecord;
import com.amazonaws.services.lambda.runtime.events.models.dynamodb.StreamViewType;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.Record;

/**
 * Turns an SDK v2 DynamoDB Streams {@link Record} into the {@link DynamodbEvent} record shape Lambda delivers, so the
 * stream router sees locally exactly what it sees on AWS. (No library converts in this direction.)
 */
public final class StreamRecordConverter {

    /** Creation times past this are DynamoDB Local reporting milliseconds where seconds are due. */
    private static final long MAX_PLAUSIBLE_EPOCH_SECONDS =
            Instant.parse("2400-01-01T00:00:00Z").getEpochSecond();

    private final String region;
    private final String streamArn;

    public StreamRecordConverter(String region, String streamArn) {
        this.region = region;
        this.streamArn = streamArn;
    }

    /** One Lambda-shaped batch from stream records. */
    public DynamodbEvent toEvent(List<Record> records) {
        DynamodbEvent event = new DynamodbEvent();
        event.setRecords(records.stream().map(this::toRecord).toList());
        return event;
    }

    public DynamodbEvent.DynamodbStreamRecord toRecord(Record r) {
        DynamodbEvent.DynamodbStreamRecord out = new DynamodbEvent.DynamodbStreamRecord();
        out.setEventID(r.eventID());
        out.setEventName(r.eventNameAsString());
        out.setEventVersion(r.eventVersion() == null ? "1.1" : r.eventVersion());
        out.setEventSource("aws:dynamodb");
        out.setAwsRegion(region);
        out.setEventSourceARN(streamArn);
        var s = r.dynamodb();
        StreamRecord sr = new StreamRecord();
        sr.setSequenceNumber(s.sequenceNumber());
        sr.setSizeBytes(s.sizeBytes());
        if (s.streamViewTypeAsString() != null) {
            sr.setStreamViewType(StreamViewType.fromValue(s.streamViewTypeAsString()));
        }
        if (s.approximateCreationDateTime() != null) {
            sr.setApproximateCreationDateTime(Date.from(plausible(s.approximateCreationDateTime())));
        }
        sr.setKeys(convertMap(s.keys()));
        if (s.hasNewImage()) {
            sr.setNewImage(convertMap(s.newImage()));
        }
        if (s.hasOldImage()) {
            sr.setOldImage(convertMap(s.oldImage()));
        }
        out.setDynamodb(sr);
        return out;
    }

    private static Instant plausible(Instant t) {
        long seconds = t.getEpochSecond();
        return seconds > MAX_PLAUSIBLE_EPOCH_SECONDS ? Instant.ofEpochMilli(seconds) : t;
    }

    static Map<String, AttributeValue> convertMap(
            Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> in) {
        if (in == null) {
            return null;
        }
        Map<String, AttributeValue> out = new LinkedHashMap<>();
        in.forEach((k, v) -> out.put(k, convert(v)));
        return out;
    }

    static AttributeValue convert(software.amazon.awssdk.services.dynamodb.model.AttributeValue v) {
        AttributeValue out = new AttributeValue();
        switch (v.type()) {
            case S -> out.setS(v.s());
            case N -> out.setN(v.n());
            case B -> out.setB(ByteBuffer.wrap(v.b().asByteArray()));
            case SS -> out.setSS(v.ss());
            case NS -> out.setNS(v.ns());
            case BS ->
                out.setBS(v.bs().stream()
                        .map(b -> ByteBuffer.wrap(b.asByteArray()))
                        .toList());
            case M -> out.setM(convertMap(v.m()));
            case L ->
                out.setL(v.l().stream().map(StreamRecordConverter::convert).toList());
            case BOOL -> out.setBOOL(v.bool());
            case NUL -> out.setNULL(Boolean.TRUE);
            case UNKNOWN_TO_SDK_VERSION ->
                throw new IllegalArgumentException("unknown attribute type in stream record: " + v);
        }
        return out;
    }
}
