package dev.interlock.model.trait;

import dev.interlock.model.net.NeverAllowedAddresses;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/** Where a trait is evaluated: {@code builtin:<name>}, {@code lambda:<function>}, an http(s) URL or a relative path. */
public sealed interface EvaluatorLocator {

    /** A builtin of the evaluator Lambda. */
    record Builtin(BuiltinEvaluator evaluator) implements EvaluatorLocator {}

    /** A Lambda function (name, partial or full ARN, optionally with a qualifier). */
    record LambdaFunction(String function) implements EvaluatorLocator {}

    /** An absolute http(s) endpoint. */
    record Http(URI url) implements EvaluatorLocator {}

    /** A path resolved against {@code EVALUATOR_BASE_URL}. */
    record RelativePath(String path) implements EvaluatorLocator {}

    /** Lambda function names, ARNs and aliases use only these characters. */
    Pattern LAMBDA_NAME = Pattern.compile("[A-Za-z0-9_:.$-]{1,170}");
    /** A relative path: segments of URL-safe characters, no scheme, no '..', no whitespace. */
    Pattern RELATIVE_PATH = Pattern.compile("/?[A-Za-z0-9._~-]+(/[A-Za-z0-9._~-]+)*/?");

    /**
     * Why registration refuses {@code text} as an evaluator: an http(s) URL whose host is, or resolves to, a
     * never-allowed address. Empty for every other locator, and for one that does not parse (its parse error is
     * reported at the same path). The one rule pipeline traits and archetype traits are both registered under.
     */
    static Optional<String> refusal(String text, NeverAllowedAddresses addresses) {
        EvaluatorLocator locator;
        try {
            locator = text == null || text.isBlank() ? null : parse(text);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return locator instanceof Http http
                ? addresses.problem(http.url()).map(problem -> "'" + text + "' is refused: " + problem)
                : Optional.empty();
    }

    /** Parses a locator; anything else is an {@link IllegalArgumentException} listing the accepted forms. */
    static EvaluatorLocator parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException(
                    "evaluator is empty; expected builtin:<name>, lambda:<function>, http(s)://… or a relative path");
        }
        String locator = text.trim();
        String lower = locator.toLowerCase(Locale.ROOT);
        if (lower.startsWith("builtin:")) {
            return new Builtin(BuiltinEvaluator.fromJson(locator.substring("builtin:".length())));
        }
        if (lower.startsWith("lambda:")) {
            String function = locator.substring("lambda:".length());
            if (!LAMBDA_NAME.matcher(function).matches()) {
                throw new IllegalArgumentException("'" + text + "' does not name a Lambda function");
            }
            return new LambdaFunction(function);
        }
        if (lower.startsWith("http://") || lower.startsWith("https://")) {
            try {
                URI uri = new URI(locator);
                if (dev.interlock.model.net.HostLiteral.hostOf(uri) == null) {
                    throw new IllegalArgumentException("'" + text + "' has no host");
                }
                return new Http(uri);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("'" + text + "' is not a valid URL: " + e.getReason(), e);
            }
        }
        if (RELATIVE_PATH.matcher(locator).matches() && !locator.contains("..")) {
            return new RelativePath(locator);
        }
        throw new IllegalArgumentException(
                "'" + text
                        + "' is not an evaluator locator; expected builtin:<name>, lambda:<function>, http(s)://… or a relative path");
    }
}
