package dev.interlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ContentLengthPatternTest {

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 9, 10, 99, 100, 262_144, 199_999, 908_070, 10_485_760})
    void matchesExactlyTheNumbersAboveTheLimit(long limit) {
        Pattern pattern = Pattern.compile(ContentLengthPattern.greaterThan(limit));
        for (long n = Math.max(0, limit - 1_500); n <= limit + 1_500; n++) {
            assertThat(pattern.matcher(Long.toString(n)).find())
                    .as("%d against limit %d", n, limit)
                    .isEqualTo(n > limit);
        }
        for (long n : new long[] {0, 7, 42, 999, 65_536, 1_000_000, 99_999_999_999L}) {
            assertThat(pattern.matcher(Long.toString(n)).find())
                    .as("%d against limit %d", n, limit)
                    .isEqualTo(n > limit);
        }
    }

    @Test
    void leadingZerosAndNonNumbersAreJudgedByValue() {
        Pattern pattern = Pattern.compile(ContentLengthPattern.greaterThan(262_144));
        assertThat(pattern.matcher("000262145").find()).isTrue();
        assertThat(pattern.matcher("000262144").find()).isFalse();
        assertThat(pattern.matcher("262145x").find()).isFalse();
        assertThat(pattern.matcher("").find()).isFalse();
    }

    @Test
    void theDefaultLimitPatternIsShortAndHasNoGroups() {
        String regex = ContentLengthPattern.greaterThan(262_144);
        assertThat(regex)
                .isEqualTo("^0*[1-9]\\d{6,}$|^0*[3-9]\\d{5}$|^0*2[7-9]\\d{4}$|^0*26[3-9]\\d{3}$"
                        + "|^0*262[2-9]\\d{2}$|^0*2621[5-9]\\d$|^0*26214[5-9]$");
        assertThat(regex).doesNotContain("(").hasSizeLessThan(200);
    }
}
