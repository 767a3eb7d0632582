package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestBodyTest {

    private final ApiFixture api = new ApiFixture();

    private String refusal(String body, String contentType) {
        ApiFixture.Reply reply = api.call("PUT", "/sensors/orders", body, contentType, Map.of());
        return reply.status() + " " + reply.json().get("detail").asText();
    }

    @Test
    void yamlReferencesTagsDuplicateKeysAndSeveralDocumentsAreRefusedByName() {
        assertThat(refusal("a: &x [1, 2]\nb: *x\n", "application/yaml"))
                .isEqualTo("400 malformed YAML at line 1, column 8: anchors and aliases are not accepted");
        assertThat(refusal("count: !!int 3\n", "application/yaml"))
                .isEqualTo(
                        "400 malformed YAML at line 1, column 15: tags such as tag:yaml.org,2002:int are not accepted");
        assertThat(refusal("count: 1\ncount: 2\n", "application/yaml"))
                .isEqualTo("400 malformed YAML at line 2, column 6: Duplicate field 'count'");
        assertThat(refusal("count: 1\n---\ncount: 2\n", "application/yaml"))
                .isEqualTo(
                        "400 malformed YAML at line 3, column 1: content follows the document (send exactly one YAML document)");
    }

    @Test
    void nestingAndSizeLimitsAreNamed() {
        assertThat(refusal("{\"a\":" + "[".repeat(40) + "]".repeat(40) + "}", "application/json"))
                .isEqualTo(
                        "400 malformed JSON: Document nesting depth (33) exceeds the maximum allowed (32, from `StreamReadConstraints.getMaxNestingDepth()`)");
        assertThat(refusal("{\"a\":\"" + "é".repeat(140_000) + "\"}", "application/json"))
                .isEqualTo("413 the body has 280008 bytes; at most 262144 are accepted");
        assertThat(refusal("{\"a\":1}", "application/xml"))
                .isEqualTo(
                        "415 Content-Type application/xml is not accepted; send application/json or application/yaml");
        assertThat(refusal("{\"a\":1}", "application/x-www-form-urlencoded"))
                .isEqualTo(
                        "415 Content-Type application/x-www-form-urlencoded is not accepted; send application/json or "
                                + "application/yaml (curl -d sends form data; add -H 'Content-Type: application/json')");
    }

    @Test
    void base64BodiesAreDecodedAsApiGatewaySendsThem() {
        ApiResponse stored = ApiFixture.documented(
                "PUT",
                "/sensors/orders",
                api.api.handle(new ApiRequest(
                        "PUT",
                        "/sensors/orders",
                        Map.of(),
                        Map.of("content-type", "application/json"),
                        java.util.Base64.getEncoder()
                                .encodeToString("{\"count\":7}".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                        true,
                        null)));

        assertThat(stored.status()).isEqualTo(200);
        assertThat(api.store.sensors().get("orders").orElseThrow().fields()).isEqualTo(Map.of("count", 7));
    }
}
