package dev.interlock.local.cli;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.catalog.ArchetypeCatalog;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.net.NeverAllowedAddresses;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.secret.OutboundPolicy;
import dev.interlock.model.validation.DocumentValidation;
import dev.interlock.model.validation.PipelineValidation;
import dev.interlock.model.validation.ReferenceValidation;
import dev.interlock.model.validation.Validated;
import dev.interlock.store.PipelineIndex;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code interlock validate --offline}: the API's own validation of each document (the same shared-model code the
 * API runs), with no running system, for CI. What a running system would add is what it has registered: offline, a
 * pipeline may name a bundled archetype or an archetype or calendar in the files given, nothing else. Which secret
 * names and hosts a pipeline may use comes from the same environment variables the deployed API reads
 * ({@code INTERLOCK_SECRETS_PREFIX}, {@code INTERLOCK_SSM_PARAMETER_PREFIX}, {@code INTERLOCK_SECRET_HOSTS}); without
 * them, none (the API's default).
 */
final class OfflineValidation {

    private final PrintStream out;
    private final PrintStream err;

    OfflineValidation(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    void run(List<Path> paths) {
        List<DocumentFiles.Document> docs = new Registration(null, out, err).read(paths);
        NeverAllowedAddresses addresses = NeverAllowedAddresses.system();
        OutboundPolicy outbound = OutboundPolicy.fromEnvironment(v -> System.getenv(v.name()));
        Map<String, Archetype> archetypes = new HashMap<>();
        Map<String, Calendar> calendars = new HashMap<>();
        int invalid = 0;
        // Registration order (calendars, archetypes, pipelines): what a pipeline names is known when it is checked.
        for (DocumentFiles.Document d : docs) {
            List<ValidationError> errors = new ArrayList<>();
            String name = d.name();
            switch (d.kind()) {
                case "calendar" -> {
                    Validated<Calendar> v = DocumentValidation.calendar(Registration.withoutKind(d.body()));
                    errors.addAll(v.errors());
                    if (v.errors().isEmpty()) {
                        calendars.put(v.value().name(), v.value());
                    }
                }
                case "archetype" -> {
                    Validated<Archetype> v =
                            DocumentValidation.archetype(Registration.withoutKind(d.body()), addresses);
                    errors.addAll(v.errors());
                    if (v.errors().isEmpty()) {
                        archetypes.put(v.value().name(), v.value());
                    }
                }
                default -> {
                    PipelineValidation validation = new PipelineValidation(
                            n -> Optional.ofNullable(archetypes.get(n))
                                    .or(() -> ArchetypeCatalog.bundled().find(n)),
                            outbound,
                            addresses);
                    Validated<PipelineConfig> v = validation.validateTree(Registration.withoutKind(d.body()));
                    errors.addAll(v.errors());
                    if (v.errors().isEmpty()) {
                        String calendar = PipelineIndex.calendarOf(v.value());
                        errors.addAll(ReferenceValidation.exclusions(
                                v.value(), calendar == null ? null : calendars.get(calendar)));
                    }
                }
            }
            if (!errors.isEmpty()) {
                invalid++;
                err.println(d.kind() + " " + name + " is invalid (" + d.source() + ")");
                for (ValidationError e : errors) {
                    String where = d.locate(e.path());
                    err.println("  " + (where.equals(e.path()) ? "" : where + "  ") + e.path() + ": " + e.message());
                }
            }
        }
        if (invalid > 0) {
            throw new CliFailure(invalid + " of " + docs.size() + " document(s) invalid (checked offline)");
        }
        docs.forEach(d -> out.println(d.kind() + " " + d.name() + " is valid (" + d.source() + ")"));
        out.println(docs.size() + " document(s) valid (checked offline: no running system; a pipeline may name "
                + "only bundled archetypes and the archetypes and calendars in these files)");
    }
}
