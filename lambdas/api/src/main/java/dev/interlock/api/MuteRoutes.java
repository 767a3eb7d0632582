package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.Mute;
import dev.interlock.model.alert.MuteScope;
import dev.interlock.model.event.MuteEvents;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.schedule.TimeSpan;
import dev.interlock.model.validation.PipelineValidation;
import dev.interlock.store.Page;
import dev.interlock.store.Provider;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Muting alerts (docs/operations.md, "Muting"): {@code PUT /mutes/{scope}/{target}} silences a pipeline's or a team's
 * alerts for a window with a reason, {@code DELETE} lifts it, {@code GET /mutes} lists them. Each set and lift is
 * audited as a {@code MUTED} / {@code UNMUTED} event on every pipeline it covers (a team's: those naming the team
 * then); each alert it silences leaves an {@code ALERT_MUTED} event of its day.
 */
final class MuteRoutes {

    /** A mute as the API answers it: the stored mute and where it stands now. */
    record MuteView(
            String scope,
            String target,
            Instant from,
            Instant until,
            String reason,
            String mutedBy,
            Instant mutedAt,
            String state,
            List<String> pipelines) {}

    private final Provider provider;
    private final RequestBody body;
    private final Clock clock;

    MuteRoutes(Provider provider, RequestBody body, Clock clock) {
        this.provider = provider;
        this.body = body;
        this.clock = clock;
    }

    ApiResponse put(ApiRequest request, Map<String, String> path) {
        List<ValidationError> errors = new ArrayList<>();
        MuteScope scope = scope(path, errors);
        String target = target(scope, path, errors);
        JsonNode document = body.readObject(request, false);
        RequestFields fields = RequestFields.read(document, List.of("reason", "for", "until", "from"), errors);
        Instant now = clock.instant();
        Instant from = fields.instant("from", errors);
        if (from == null || from.isBefore(now)) {
            from = now;
        }
        Instant until = until(fields, from, errors);
        String reason = fields.prose("reason", true, Mute.MAX_REASON, errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the mute request has " + errors.size() + " problem(s)", errors);
        }
        List<String> covered = covered(scope, target);
        Mute mute = new Mute(scope, target, from, until, reason, request.caller(), now);
        // Audited before it takes effect: there is never a mute without its record.
        for (String pipelineId : covered) {
            provider.events().append(MuteEvents.muted(pipelineId, mute));
        }
        provider.mutes().put(mute);
        return ApiResponse.json(200, view(mute, covered, now));
    }

    ApiResponse delete(ApiRequest request, Map<String, String> path) {
        List<ValidationError> errors = new ArrayList<>();
        MuteScope scope = scope(path, errors);
        String target = target(scope, path, errors);
        String reason = request.text("reason", Mute.MAX_REASON, errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the unmute request has " + errors.size() + " problem(s)", errors);
        }
        Instant now = clock.instant();
        Mute mute = provider.mutes()
                .get(scope, target)
                .orElseThrow(() -> ProblemException.of(
                        ProblemType.NOT_FOUND, "no mute of " + scope.wireName() + " '" + target + "'"));
        List<String> covered = covered(scope, target);
        for (String pipelineId : covered) {
            provider.events().append(MuteEvents.unmuted(pipelineId, mute, request.caller(), reason, now));
        }
        provider.mutes().delete(scope, target);
        return ApiResponse.json(200, view(mute, covered, now));
    }

    ApiResponse list(ApiRequest request, Map<String, String> path) {
        Instant now = clock.instant();
        List<MuteView> views =
                provider.mutes().list().stream().map(m -> view(m, null, now)).toList();
        return ApiResponse.json(200, Map.of("items", views));
    }

    /** {@code active}, {@code planned} (its window is ahead) or {@code ended}. */
    static String state(Mute mute, Instant now) {
        return mute.activeAt(now) ? "active" : mute.endedAt(now) ? "ended" : "planned";
    }

    private static MuteView view(Mute mute, List<String> covered, Instant now) {
        return new MuteView(
                mute.scope().wireName(),
                mute.target(),
                mute.from(),
                mute.until(),
                mute.reason(),
                mute.mutedBy(),
                mute.mutedAt(),
                state(mute, now),
                covered);
    }

    /** The pipelines a mute covers now: the one, or every registered pipeline naming the team. */
    private List<String> covered(MuteScope scope, String target) {
        if (scope == MuteScope.PIPELINE) {
            return List.of(target);
        }
        return Page.all(PAGE, page -> provider.pipelines().list(page)).stream()
                .filter(p -> target.equals(p.team()))
                .map(PipelineConfig::name)
                .toList();
    }

    private static final int PAGE = 100;

    private static MuteScope scope(Map<String, String> path, List<ValidationError> errors) {
        try {
            return MuteScope.fromJson(path.get("scope"));
        } catch (IllegalArgumentException e) {
            errors.add(
                    new ValidationError("path.scope", "must be pipelines or teams, got '" + path.get("scope") + "'"));
            return MuteScope.PIPELINE;
        }
    }

    private String target(MuteScope scope, Map<String, String> path, List<ValidationError> errors) {
        String target = path.get("target");
        if (target == null || !PipelineValidation.isRoutingName(target)) {
            errors.add(new ValidationError(
                    "path.target", "'" + target + "' is no " + scope.wireName() + " name (letters, digits, . _ -)"));
            return target;
        }
        if (errors.isEmpty()
                && scope == MuteScope.PIPELINE
                && provider.pipelines().get(target).isEmpty()) {
            throw PipelineRoutes.notFound(target);
        }
        return target;
    }

    /** The end: {@code until}, or {@code from} plus {@code for}; exactly one of them, at most a week after from. */
    private static Instant until(RequestFields fields, Instant from, List<ValidationError> errors) {
        String forText = fields.text("for");
        Instant until = fields.instant("until", errors);
        if (forText == null && fields.text("until") == null) {
            errors.add(new ValidationError(
                    JsonPath.field(JsonPath.ROOT, "for"),
                    "a mute needs an end: 'for' (a duration, e.g. 2h) or 'until' (a time); mutes never last for ever"));
            return from;
        }
        if (forText != null && fields.text("until") != null) {
            errors.add(new ValidationError(JsonPath.field(JsonPath.ROOT, "until"), "give 'for' or 'until', not both"));
            return from;
        }
        if (forText != null) {
            try {
                until = from.plus(TimeSpan.parse(forText));
            } catch (IllegalArgumentException e) {
                errors.add(new ValidationError(
                        JsonPath.field(JsonPath.ROOT, "for"),
                        "'" + forText + "' is not a duration (e.g. 30m, 2h, 48h): " + e.getMessage()));
                return from;
            }
        }
        if (until == null) {
            return from;
        }
        String path = JsonPath.field(JsonPath.ROOT, forText != null ? "for" : "until");
        if (!until.isAfter(from)) {
            errors.add(new ValidationError(path, "the mute would end (" + until + ") before it starts (" + from + ")"));
        } else if (Duration.between(from, until).compareTo(Mute.MAX_SPAN) > 0) {
            errors.add(new ValidationError(
                    path, "a mute lasts at most " + Mute.MAX_SPAN.toDays() + " days; set a new one when it ends"));
        }
        return until;
    }
}
