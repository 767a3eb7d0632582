package dev.interlock.model.marker;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class ExecutionNameProperties {

    @Property(tries = 2000)
    void namesAreAlwaysValidStepFunctionsNames(
            @ForAll("anyText") String pipeline,
            @ForAll("dates") LocalDate date,
            @ForAll("anyText") String schedule,
            @ForAll("anyText") String markerSk) {
        String name = ExecutionName.of(pipeline, date, schedule, markerSk);
        assertThat(name).matches("[A-Za-z0-9_-]+");
        assertThat(name.length()).isLessThanOrEqualTo(ExecutionName.MAX_LENGTH);
        assertThat(name).endsWith("_" + ExecutionName.hash8(markerSk));
    }

    @Property(tries = 1000)
    void namesAreDeterministicSoRedeliveredRecordsCollide(
            @ForAll("anyText") String pipeline,
            @ForAll("dates") LocalDate date,
            @ForAll("anyText") String schedule,
            @ForAll("anyText") String markerSk) {
        assertThat(ExecutionName.of(pipeline, date, schedule, markerSk))
                .isEqualTo(ExecutionName.of(pipeline, date, schedule, markerSk));
    }

    @Property(tries = 2000)
    void distinctMarkersOfOneRunGetDistinctNames(
            @ForAll("anyText") String pipeline,
            @ForAll("dates") LocalDate date,
            @ForAll("anyText") String schedule,
            @ForAll("anyText") String firstSk,
            @ForAll("anyText") String secondSk) {
        Assume.that(!firstSk.equals(secondSk));
        assertThat(ExecutionName.of(pipeline, date, schedule, firstSk))
                .isNotEqualTo(ExecutionName.of(pipeline, date, schedule, secondSk));
    }

    @Property(tries = 500)
    void sanitisingKeepsLengthInCodePointsAndOnlyAllowedCharacters(@ForAll("anyText") String text) {
        String sanitised = ExecutionName.sanitise(text);
        assertThat(sanitised).matches("[A-Za-z0-9_-]*");
        assertThat(sanitised.length()).isEqualTo(text.codePointCount(0, text.length()));
    }

    @Provide
    Arbitrary<String> anyText() {
        return Arbitraries.oneOf(
                Arbitraries.strings().all().ofMinLength(1).ofMaxLength(120),
                Arbitraries.strings()
                        .withChars("abcdefghijklmnopqrstuvwxyz0123456789._-#:")
                        .ofMinLength(1)
                        .ofMaxLength(70));
    }

    @Provide
    Arbitrary<LocalDate> dates() {
        return Arbitraries.longs().between(0, 60_000).map(LocalDate::ofEpochDay);
    }
}
