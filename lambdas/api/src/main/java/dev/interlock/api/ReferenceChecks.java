package dev.interlock.api;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.catalog.ArchetypeCatalog;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.secret.OutboundPolicy;
import dev.interlock.model.validation.ArchetypeValidation;
import dev.interlock.model.validation.PipelineValidation;
import dev.interlock.model.validation.ReferenceValidation;
import dev.interlock.store.DependantCheck;
import dev.interlock.store.PipelineIndex;
import dev.interlock.store.PipelineStore;
import dev.interlock.store.Provider;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * How registration judges a pipeline against the documents it names, and a change to a document against the
 * pipelines that use it: the same rules ({@link PipelineValidation} with a given archetype, {@link ReferenceValidation}
 * with a given calendar), so a change is refused exactly when it would make a user fail its own registration.
 */
final class ReferenceChecks {

    private final Provider provider;
    private final OutboundPolicy outbound;

    ReferenceChecks(Provider provider, OutboundPolicy outbound) {
        this.provider = provider;
        this.outbound = outbound;
    }

    /** A registered archetype, else a bundled one: what a pipeline may name. */
    Optional<Archetype> archetype(String name) {
        if (name == null || !ArchetypeValidation.NAME.matcher(name).matches()) {
            return Optional.empty();
        }
        return provider.archetypes()
                .get(name)
                .or(() -> ArchetypeCatalog.bundled().find(name));
    }

    /** The pipeline's problems against the registered documents the store read for its write. */
    PipelineStore.ReferenceCheck pipeline() {
        return (config, referenced) -> problems(
                config,
                name -> Optional.ofNullable(referenced.archetype())
                        .or(() -> ArchetypeCatalog.bundled().find(name)),
                referenced.calendar());
    }

    /** The pipeline's problems against the documents registered now (validation without a write). */
    List<ValidationError> now(PipelineConfig config) {
        String calendar = PipelineIndex.calendarOf(config);
        return problems(
                config,
                this::archetype,
                calendar == null ? null : provider.calendars().get(calendar).orElse(null));
    }

    /** What registering {@code next} would break in a pipeline that uses the archetype. */
    DependantCheck archetypeChange(Archetype next) {
        return user -> ReferenceValidation.introduced(
                now(user),
                problems(
                        user,
                        name -> name.equals(next.name()) ? Optional.of(next) : archetype(name),
                        currentCalendar(user)));
    }

    /** What registering {@code next} would break in a pipeline that uses the calendar. */
    DependantCheck calendarChange(Calendar next) {
        return user -> ReferenceValidation.introduced(now(user), problems(user, this::archetype, next));
    }

    /** What deleting the calendar would break in a pipeline that uses it. */
    DependantCheck calendarDeletion() {
        return user -> ReferenceValidation.introduced(now(user), problems(user, this::archetype, null));
    }

    private Calendar currentCalendar(PipelineConfig user) {
        String calendar = PipelineIndex.calendarOf(user);
        return calendar == null ? null : provider.calendars().get(calendar).orElse(null);
    }

    private List<ValidationError> problems(
            PipelineConfig config, Function<String, Optional<Archetype>> archetypes, Calendar calendar) {
        List<ValidationError> errors = new ArrayList<>(new PipelineValidation(archetypes, outbound).validate(config));
        errors.addAll(ReferenceValidation.exclusions(config, calendar));
        return errors;
    }
}
