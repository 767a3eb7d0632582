package dev.interlock.model.status;

import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.event.Event;
import dev.interlock.model.json.Frozen;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunState;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.watch.PipelineWatch;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * What the table holds about one pipeline day, as read for {@link StatusDerivation}: nothing here is computed.
 *
 * @param calendar        the pipeline's named exclusion calendar, null when it names none or it is not registered
 * @param runLogs         run logs by schedule id
 * @param runs            the latest run of each schedule on this date, by schedule id
 * @param traits          unexpired trait results by schedule id
 * @param lockHolders     the evaluation lock's holder by schedule id (absent when free)
 * @param events          the pipeline's events of this date, oldest first (a bounded recent window)
 * @param upstreamConfigs the registered upstream pipelines by id (an unregistered one is absent)
 * @param upstreamRunLogs the upstreams' run logs of this date, by {@link #upstreamKey}
 * @param downstreams     the pipelines that name this one as an upstream
 * @param watch           the watchdog's state of the pipeline (when each schedule was registered, forward-only), null
 *                        when it has none or no schedule of the day needs it (each has a run log or a lock holder)
 */
public record DayRecords(
        PipelineConfig pipeline,
        LocalDate date,
        Calendar calendar,
        Map<String, RunLog> runLogs,
        Map<String, RunState> runs,
        Map<String, List<TraitResult>> traits,
        Map<String, String> lockHolders,
        List<Event> events,
        Map<String, PipelineConfig> upstreamConfigs,
        Map<String, RunLog> upstreamRunLogs,
        List<String> downstreams,
        PipelineWatch watch) {

    public DayRecords {
        runLogs = Frozen.map(runLogs);
        runs = Frozen.map(runs);
        traits = Frozen.map(traits);
        lockHolders = Frozen.map(lockHolders);
        events = Frozen.list(events);
        upstreamConfigs = Frozen.map(upstreamConfigs);
        upstreamRunLogs = Frozen.map(upstreamRunLogs);
        downstreams = Frozen.list(downstreams);
    }

    /** The key of an upstream's run log in {@link #upstreamRunLogs}. */
    public static String upstreamKey(String pipelineId, String scheduleId) {
        return pipelineId + "/" + scheduleId;
    }
}
