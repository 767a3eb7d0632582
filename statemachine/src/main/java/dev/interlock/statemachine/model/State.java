package dev.interlock.statemachine.model;

import java.util.ArrayList;
import java.util.List;

/** One state of an ASL graph. Paths are {@code "$"} when absent in the document and null when written as null. */
public sealed interface State
        permits PassState, TaskState, ChoiceState, WaitState, SucceedState, FailState, MapState, ParallelState {

    String name();

    String comment();

    /** The ASL {@code Type} value. */
    String type();

    /** Every state name this state may transition to, including Catch and Choice targets. */
    default List<String> successors() {
        List<String> names = new ArrayList<>();
        switch (this) {
            case ChoiceState c -> {
                c.choices().forEach(b -> names.add(b.next()));
                if (c.defaultState() != null) {
                    names.add(c.defaultState());
                }
            }
            case SucceedState s -> {}
            case FailState f -> {}
            case PassState p -> addNext(names, p.transition());
            case WaitState w -> addNext(names, w.transition());
            case TaskState t -> addNext(names, t.transition());
            case MapState m -> addNext(names, m.transition());
            case ParallelState p -> addNext(names, p.transition());
        }
        if (this instanceof Recoverable r) {
            r.catchers().forEach(c -> names.add(c.next()));
        }
        return names;
    }

    private static void addNext(List<String> names, Transition transition) {
        if (transition instanceof Transition.Next next) {
            names.add(next.state());
        }
    }

    /** States that accept {@code Retry} and {@code Catch}. */
    sealed interface Recoverable permits TaskState, MapState, ParallelState {
        List<Retrier> retry();

        List<Catcher> catchers();
    }
}
