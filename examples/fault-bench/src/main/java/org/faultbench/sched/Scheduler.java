package org.faultbench.sched;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** Orders tasks for a work queue. */
public final class Scheduler {

    private Scheduler() {
    }

    /** The tasks, highest priority first; equal priorities by earlier due day, then by name. */
    public static List<Task> byPriority(Collection<Task> tasks) {
        List<Task> sorted = new ArrayList<>(tasks);
        sorted.sort(Comparator.comparingInt(Task::getPriority).reversed()
                .thenComparingInt(Task::getDueDay)
                .thenComparing(Task::getName));
        return sorted;
    }
}
