package dev.interlock.api;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.json.JsonPath;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads a request body as a JSON tree, from JSON or YAML (chosen by Content-Type, or sniffed when it names neither),
 * within hard limits: size, nesting depth, string and number length. YAML anchors, aliases and tags are refused
 * outright, which is what makes alias bombs harmless. Every refusal is a {@link ProblemException} (4xx).
 */
public final class RequestBody {

    /** The largest accepted body (bytes, after base64 decoding). */
    public static final int DEFAULT_MAX_BYTES = 256 * 1024;
    /** Interlock documents are a few levels deep; anything far deeper is abuse. */
    public static final int MAX_NESTING_DEPTH = 32;

    private static final Set<String> JSON_TYPES = Set.of("application/json", "text/json");
    private static final Set<String> YAML_TYPES =
            Set.of("application/yaml", "application/x-yaml", "text/yaml", "text/x-yaml");
    private static final Set<String> SNIFFED_TYPES = Set.of("", "text/plain", "application/octet-stream");

    private final int maxBytes;
    private final JsonFactory json;
    private final YAMLFactory yaml;

    public RequestBody(int maxBytes) {
        this.maxBytes = maxBytes;
        StreamReadConstraints limits = StreamReadConstraints.builder()
                .maxNestingDepth(MAX_NESTING_DEPTH)
                .maxStringLength(maxBytes)
                .maxNumberLength(64)
                .maxNameLength(1024)
                .build();
        this.json = JsonFactory.builder()
                .streamReadConstraints(limits)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        LoaderOptions loader = new LoaderOptions();
        loader.setAllowDuplicateKeys(false);
        loader.setMaxAliasesForCollections(0);
        loader.setNestingDepthLimit(MAX_NESTING_DEPTH);
        loader.setCodePointLimit(maxBytes);
        this.yaml = YAMLFactory.builder()
                .loaderOptions(loader)
                .streamReadConstraints(limits)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
    }

    /** Refuses a body over the size limit (413), before any parsing or routing. */
    public void checkSize(ApiRequest request) {
        if (request.body() == null) {
            return;
        }
        long bytes = request.base64() ? request.body().length() * 3L / 4 : utf8Length(request.body());
        if (bytes > maxBytes) {
            throw ProblemException.of(
                    ProblemType.PAYLOAD_TOO_LARGE,
                    "the body has " + bytes + " bytes; at most " + maxBytes + " are accepted");
        }
    }

    /** The body's tree, or empty when the request has no body. */
    public Optional<JsonNode> read(ApiRequest request) {
        String text = text(request);
        if (text.isBlank()) {
            return Optional.empty();
        }
        String mediaType =
                request.header("content-type").map(RequestBody::mediaType).orElse("");
        boolean asJson;
        if (JSON_TYPES.contains(mediaType) || mediaType.endsWith("+json")) {
            asJson = true;
        } else if (YAML_TYPES.contains(mediaType) || mediaType.endsWith("+yaml")) {
            asJson = false;
        } else if (SNIFFED_TYPES.contains(mediaType)) {
            asJson = InterlockJson.looksLikeJson(text);
        } else {
            // curl -d sends form data unless told otherwise: the commonest way to meet this answer.
            String hint = mediaType.equals("application/x-www-form-urlencoded")
                    ? " (curl -d sends form data; add -H 'Content-Type: application/json')"
                    : "";
            throw ProblemException.of(
                    ProblemType.UNSUPPORTED_MEDIA_TYPE,
                    "Content-Type " + mediaType + " is not accepted; send application/json or application/yaml" + hint);
        }
        String format = asJson ? "JSON" : "YAML";
        try {
            if (!asJson) {
                refuseYamlReferences(text);
            }
            try (JsonParser parser = asJson ? json.createParser(text) : yaml.createParser(text)) {
                JsonNode tree = InterlockJson.json().readTree(parser);
                if (tree == null || tree.isMissingNode()) {
                    return Optional.empty();
                }
                if (parser.nextToken() != null) {
                    throw malformed(
                            format,
                            "content follows the document (send exactly one " + format + " document)",
                            parser.currentLocation());
                }
                return Optional.of(tree);
            }
        } catch (JsonProcessingException e) {
            throw malformed(format, e.getOriginalMessage(), e.getLocation());
        } catch (IOException | RuntimeException e) {
            if (e instanceof ProblemException problem) {
                throw problem;
            }
            // The YAML scanner reports some input errors as its own runtime exceptions; they are still bad input.
            throw malformed(format, String.valueOf(e.getMessage()), null);
        }
    }

    /** The body as an object; a missing body is an empty object only when {@code optional}. */
    public JsonNode readObject(ApiRequest request, boolean optional) {
        Optional<JsonNode> tree = read(request);
        if (tree.isEmpty()) {
            if (optional) {
                return InterlockJson.json().createObjectNode();
            }
            throw ProblemException.invalid(JsonPath.ROOT, "a request body is required");
        }
        if (!tree.get().isObject()) {
            throw ProblemException.invalid(
                    JsonPath.ROOT,
                    "the body must be an object, got "
                            + tree.get().getNodeType().name().toLowerCase(Locale.ROOT));
        }
        return tree.get();
    }

    private void refuseYamlReferences(String text) throws IOException {
        try (YAMLParser parser = yaml.createParser(text)) {
            while (parser.nextToken() != null) {
                if (parser.isCurrentAlias() || parser.getCurrentAnchor() != null) {
                    throw malformed("YAML", "anchors and aliases are not accepted", parser.currentLocation());
                }
                if (parser.getTypeId() != null) {
                    throw malformed(
                            "YAML",
                            "tags such as " + parser.getTypeId() + " are not accepted",
                            parser.currentLocation());
                }
            }
        }
    }

    private String text(ApiRequest request) {
        if (request.body() == null) {
            return "";
        }
        if (!request.base64()) {
            return request.body();
        }
        try {
            byte[] bytes = Base64.getMimeDecoder().decode(request.body());
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (IllegalArgumentException | CharacterCodingException e) {
            throw ProblemException.invalid(JsonPath.ROOT, "the body is not valid base64-encoded UTF-8 text");
        }
    }

    private static ProblemException malformed(String format, String message, JsonLocation at) {
        String where =
                at == null || at.getLineNr() < 0 ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
        return ProblemException.invalid(JsonPath.ROOT, "malformed " + format + where + ": " + message);
    }

    private static String mediaType(String contentType) {
        int semicolon = contentType.indexOf(';');
        return (semicolon < 0 ? contentType : contentType.substring(0, semicolon))
                .trim()
                .toLowerCase(Locale.ROOT);
    }

    private static long utf8Length(String text) {
        long bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : Character.isSurrogate(c) ? 2 : 3;
        }
        return bytes;
    }
}
