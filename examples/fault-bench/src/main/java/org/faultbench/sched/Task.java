package org.faultbench.sched;

import java.util.Objects;

/** A to-do item: a name, a priority (higher is more urgent) and the day it is due. */
public final class Task {

    private final String name;
    private final int priority;
    private final int dueDay;

    public Task(String name, int priority, int dueDay) {
        this.name = Objects.requireNonNull(name, "name");
        this.priority = priority;
        this.dueDay = dueDay;
    }

    public String getName() {
        return name;
    }

    public int getPriority() {
        return priority;
    }

    public int getDueDay() {
        return dueDay;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Task)) {
            return false;
        }
        Task t = (Task) o;
        return name.equals(t.name) && priority == t.priority && dueDay == t.dueDay;
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, priority, dueDay);
    }

    @Override
    public String toString() {
        return name + "(p" + priority + ", day " + dueDay + ")";
    }
}
