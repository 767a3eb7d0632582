/**
 * Data arrival: which registered documents name a sensor ({@link dev.interlock.model.arrival.SensorReferences}, what
 * registration indexes) and which (schedule, date) of a pipeline a write to a sensor concerns
 * ({@link dev.interlock.model.arrival.SensorTargets}, what a sensor write starts).
 */
package dev.interlock.model.arrival;
