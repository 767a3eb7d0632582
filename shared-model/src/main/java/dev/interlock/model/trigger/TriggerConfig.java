package dev.interlock.model.trigger;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

/** How to start a pipeline's job; one record per {@link TriggerType}, chosen by the {@code type} field. */
@JsonDeserialize(using = TriggerConfigDeserializer.class)
@JsonPropertyOrder({"type"})
public sealed interface TriggerConfig
        permits HttpTrigger,
                AirflowTrigger,
                GlueTrigger,
                EmrTrigger,
                EmrServerlessTrigger,
                StepFunctionTrigger,
                DatabricksTrigger,
                LambdaTrigger {

    /** The discriminator written as {@code type}. */
    @JsonProperty("type")
    TriggerType type();
}
