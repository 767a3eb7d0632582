package dev.interlock.local.events;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.local.aws.AwsJson;
import dev.interlock.local.aws.LocalArns;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The local runtime's default event bus: events put with {@code PutEvents} get AWS's envelope ({@code version},
 * {@code id}, {@code detail-type}, {@code source}, {@code account}, {@code time}, {@code region}, {@code resources},
 * {@code detail}) and are delivered, asynchronously and in order of arrival per rule, to the target of every rule whose
 * pattern matches. The bus keeps the most recent events and deliveries for inspection.
 */
public final class LocalEventBus {

    private static final int KEPT = 1000;
    private static final int DELIVERY_ATTEMPTS = 3;

    /** Where a rule sends what matched: {@code input} is the rule's rendering of the event. */
    public interface Target {
        String name();

        void deliver(JsonNode input) throws Exception;
    }

    /** A rule: its pattern, its target, and how it renders an event for the target (EventBridge's input transformer). */
    public record Rule(String name, JsonNode pattern, Target target, Function<JsonNode, JsonNode> input) {}

    /** One delivery to a target, and whether it succeeded. */
    public record Delivery(String rule, String target, JsonNode input, boolean delivered, String error) {}

    private final List<Rule> rules = new CopyOnWriteArrayList<>();
    private final java.util.Set<String> disabled = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Deque<JsonNode> events = new ArrayDeque<>();
    private final Deque<Delivery> deliveries = new ArrayDeque<>();

    public void addRule(Rule rule) {
        rules.add(rule);
    }

    public List<Rule> rules() {
        return List.copyOf(rules);
    }

    /**
     * EventBridge's {@code DisableRule}: the rule stays but matches nothing until enabled again (what an operator does
     * to stop a rule, and how a scenario loses the events of one rule).
     */
    public void disableRule(String name) {
        requireRule(name);
        disabled.add(name);
    }

    /** EventBridge's {@code EnableRule}. */
    public void enableRule(String name) {
        requireRule(name);
        disabled.remove(name);
    }

    private void requireRule(String name) {
        if (rules.stream().noneMatch(r -> r.name().equals(name))) {
            throw new IllegalArgumentException("no rule " + name + " on the local bus");
        }
    }

    /**
     * Puts one event (what a {@code PutEvents} entry carries) and answers its id; matching rules' targets receive it
     * on their own threads, retried up to {@value #DELIVERY_ATTEMPTS} times like the stack's rule targets.
     */
    public String put(String source, String detailType, JsonNode detail, List<String> resources, Instant time) {
        String id = UUID.randomUUID().toString();
        ObjectNode event = AwsJson.JSON.createObjectNode();
        event.put("version", "0");
        event.put("id", id);
        event.put("detail-type", detailType);
        event.put("source", source);
        event.put("account", LocalArns.ACCOUNT);
        event.put("time", DateTimeFormatter.ISO_INSTANT.format(time.truncatedTo(ChronoUnit.SECONDS)));
        event.put("region", LocalArns.REGION);
        ArrayNode resourceArray = event.putArray("resources");
        resources.forEach(resourceArray::add);
        event.set("detail", detail);
        synchronized (events) {
            keep(events, event);
        }
        for (Rule rule : rules) {
            if (!disabled.contains(rule.name()) && EventPattern.matches(rule.pattern(), event)) {
                JsonNode input = rule.input().apply(event);
                Thread.ofVirtual().name("event-bus-" + rule.name()).start(() -> deliver(rule, input));
            }
        }
        return id;
    }

    private void deliver(Rule rule, JsonNode input) {
        String error = null;
        for (int attempt = 1; attempt <= DELIVERY_ATTEMPTS; attempt++) {
            try {
                rule.target().deliver(input);
                record(new Delivery(rule.name(), rule.target().name(), input, true, null));
                return;
            } catch (Exception e) {
                error = e.toString();
            }
        }
        System.err.println("event rule " + rule.name() + ": delivery to "
                + rule.target().name() + " failed " + DELIVERY_ATTEMPTS + " times: " + error);
        record(new Delivery(rule.name(), rule.target().name(), input, false, error));
    }

    private void record(Delivery delivery) {
        synchronized (deliveries) {
            keep(deliveries, delivery);
        }
    }

    /** The most recent events put, oldest first. */
    public List<JsonNode> events() {
        synchronized (events) {
            return List.copyOf(events);
        }
    }

    /** The most recent deliveries to rule targets, oldest first. */
    public List<Delivery> deliveries() {
        synchronized (deliveries) {
            return List.copyOf(deliveries);
        }
    }

    private static <T> void keep(Deque<T> kept, T item) {
        kept.addLast(item);
        if (kept.size() > KEPT) {
            kept.removeFirst();
        }
    }
}
