package dev.interlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The lint harness itself: it reports real errors, and every check the config ignores comes with its reason. */
class CfnLintTest {

    @Test
    void aTemplateWithAMistakeIsReportedAsAnError() throws IOException {
        Path template = Files.createDirectories(Path.of("target", "cfn-lint")).resolve("broken.template.json");
        Files.writeString(template, """
                {"Resources": {"Queue": {"Type": "AWS::SQS::Queue",
                  "Properties": {"MessageRetentionPeriod": "forever", "NoSuchProperty": true}}}}""");
        List<String> findings = CfnLint.findings(template);
        assertThat(findings)
                .anySatisfy(f -> assertThat(f).contains(":E3002:").contains("NoSuchProperty"))
                .anySatisfy(f -> assertThat(f).contains(":E3012:").contains("forever"));
    }

    @Test
    void everyIgnoredCheckIsExplainedInTheConfig() throws IOException {
        String config = Files.readString(CfnLint.CONFIG);
        Matcher ignored = Pattern.compile("(?m)^\\s+-\\s+([EWI]\\d{4})\\s*$").matcher(config);
        int count = 0;
        int previous = config.indexOf("ignore_checks:");
        while (ignored.find()) {
            count++;
            String id = ignored.group(1);
            // The comment between the previous entry and this one is this entry's reason.
            String reason = config.substring(previous, ignored.start());
            assertThat(reason)
                    .as("a comment above %s in %s gives its reason", id, CfnLint.CONFIG)
                    .containsPattern("#\\s+" + id + "\\b.{40,}");
            previous = ignored.end();
        }
        assertThat(count).as("ignored checks in %s", CfnLint.CONFIG).isPositive();
    }
}
