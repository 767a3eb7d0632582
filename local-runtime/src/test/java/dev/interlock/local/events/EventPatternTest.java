package dev.interlock.local.events;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class EventPatternTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return JSON.readTree(text);
    }

    @Test
    void everyPatternFieldMustMatchOneOfItsValues() throws Exception {
        JsonNode pattern = json("{\"source\":[\"aws.glue\"],\"detail-type\":[\"Glue Job State Change\"],"
                + "\"detail\":{\"state\":[\"SUCCEEDED\",\"FAILED\"]}}");

        assertThat(EventPattern.matches(
                        pattern,
                        json("{\"source\":\"aws.glue\",\"detail-type\":\"Glue Job State Change\","
                                + "\"detail\":{\"state\":\"FAILED\",\"jobName\":\"x\"}}")))
                .isTrue();
        assertThat(EventPattern.matches(
                        pattern,
                        json("{\"source\":\"aws.glue\",\"detail-type\":\"Glue Job State Change\","
                                + "\"detail\":{\"state\":\"RUNNING\"}}")))
                .isFalse();
        assertThat(EventPattern.matches(
                        pattern,
                        json("{\"source\":\"aws.emr\",\"detail-type\":\"Glue Job State Change\","
                                + "\"detail\":{\"state\":\"FAILED\"}}")))
                .isFalse();
        assertThat(EventPattern.matches(
                        pattern, json("{\"source\":\"aws.glue\",\"detail-type\":\"Glue Job State Change\"}")))
                .isFalse();
    }

    @Test
    void anArrayInTheEventMatchesWhenAnyElementDoesAndNumbersCompareByValue() throws Exception {
        assertThat(EventPattern.matches(
                        json("{\"resources\":[\"arn:b\"]}"), json("{\"resources\":[\"arn:a\",\"arn:b\"]}")))
                .isTrue();
        assertThat(EventPattern.matches(json("{\"detail\":{\"n\":[1]}}"), json("{\"detail\":{\"n\":1.0}}")))
                .isTrue();
        assertThat(EventPattern.matches(json("{\"detail\":{\"n\":[\"1\"]}}"), json("{\"detail\":{\"n\":1}}")))
                .isFalse();
    }

    @Test
    void anythingButAllowsEveryValueExceptThoseListed() throws Exception {
        JsonNode pattern = json("{\"detail\":{\"stateMachineArn\":[{\"anything-but\":[\"arn:interlock\"]}]}}");
        assertThat(EventPattern.matches(pattern, json("{\"detail\":{\"stateMachineArn\":\"arn:users\"}}")))
                .isTrue();
        assertThat(EventPattern.matches(pattern, json("{\"detail\":{\"stateMachineArn\":\"arn:interlock\"}}")))
                .isFalse();
        assertThat(EventPattern.matches(pattern, json("{\"detail\":{}}")))
                .as("the field must still be there")
                .isFalse();
        assertThat(EventPattern.matches(
                        json("{\"status\":[{\"anything-but\":\"RUNNING\"}]}"), json("{\"status\":\"RUNNING\"}")))
                .as("a single excluded value")
                .isFalse();
    }
}
