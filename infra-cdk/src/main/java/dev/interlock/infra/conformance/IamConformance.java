package dev.interlock.infra.conformance;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.interlock.infra.BuildArtifacts;
import dev.interlock.infra.DeploymentOptions;
import dev.interlock.infra.InterlockApp;
import dev.interlock.infra.InterlockStack;
import dev.interlock.model.json.InterlockJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.AppProps;

/**
 * The IAM conformance check as a program, run by {@code integration-tests} after its end-to-end suite (so every
 * recording exists): reads the AWS requests the functions made in the tests, synthesizes the stack configured for the
 * jobs they called ({@link ConformanceDeployment}), judges every request against its function's role
 * ({@link IamConformanceCheck}), writes {@code report.txt} and {@code <stack>.template.json} to the output directory,
 * and exits 1 when a request is not allowed (2 when nothing was recorded, 3 on bad arguments).
 *
 * <p>Usage: {@code IamConformance --out DIR --recordings DIR [--recordings DIR ...]}
 */
public final class IamConformance {

    private IamConformance() {}

    public static void main(String[] args) throws IOException {
        Path out = null;
        List<Path> recordings = new ArrayList<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--out" -> out = Path.of(args[i + 1]);
                case "--recordings" -> recordings.add(Path.of(args[i + 1]));
                default -> {
                    System.err.println("unknown argument " + args[i] + "; usage: --out DIR --recordings DIR ...");
                    System.exit(3);
                }
            }
        }
        if (out == null || recordings.isEmpty() || args.length % 2 != 0) {
            System.err.println("usage: IamConformance --out DIR --recordings DIR [--recordings DIR ...]");
            System.exit(3);
        }
        List<RecordedRequest> requests = RecordedRequest.readAll(recordings);
        if (requests.isEmpty()) {
            System.err.println("IAM conformance: no recorded AWS requests in " + recordings
                    + " — run the function tests and the end-to-end suite first");
            System.exit(2);
        }
        Files.createDirectories(out);
        Map<String, Object> jobs = ConformanceDeployment.jobContext(requests);
        Path template;
        try {
            template = synthesize(out.resolve("cdk.out"), jobs);
        } catch (IllegalArgumentException e) {
            // A test called a job by a name or ARN no deployment can be configured with: no role could allow it.
            String report = "IAM conformance: the jobs the recorded requests call cannot be named in a deployment's "
                    + "context, so no role can allow them (use real-looking names and ARNs in tests): " + e.getMessage()
                    + "\nContext derived from the recordings: " + jobs + "\n";
            Files.writeString(out.resolve("report.txt"), report);
            System.out.println(report);
            System.out.flush();
            System.exit(1);
            return;
        }
        Files.copy(template, out.resolve(template.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Map<String, Object> json = InterlockJson.json().readValue(Files.readString(template), new TypeReference<>() {});
        IamConformanceCheck.Result result = new IamConformanceCheck(json).check(requests);
        String report = "Recordings: " + recordings + "\nDeployment context for the recorded jobs: " + jobs + "\n\n"
                + result.report();
        Files.writeString(out.resolve("report.txt"), report);
        System.out.println(report);
        System.out.flush();
        System.exit(result.conforms() ? 0 : 1);
    }

    /** Synthesizes the stack as {@code cdk synth} would (cdk.json's context, then {@code context}); returns the template. */
    static Path synthesize(Path outdir, Map<String, Object> context) {
        Map<String, Object> merged = new HashMap<>(InterlockApp.cdkJsonContext());
        merged.putAll(context);
        App app = new App(
                AppProps.builder().outdir(outdir.toString()).context(merged).build());
        DeploymentOptions options =
                DeploymentOptions.fromContext(key -> app.getNode().tryGetContext(key));
        InterlockStack stack = InterlockApp.stack(app, options, BuildArtifacts.locate(Path.of("")), null);
        app.synth();
        return outdir.resolve(stack.getArtifactId() + ".template.json");
    }
}
