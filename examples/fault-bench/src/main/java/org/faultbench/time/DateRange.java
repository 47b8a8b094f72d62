package org.faultbench.time;

import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.Objects;

/** The days from start to end, both included. */
public final class DateRange {

    private final LocalDate start;
    private final LocalDate end;

    public DateRange(LocalDate start, LocalDate end) {
        this.start = Objects.requireNonNull(start, "start");
        this.end = Objects.requireNonNull(end, "end");
        if (end.isBefore(start)) {
            throw new IllegalArgumentException("end " + end + " before start " + start);
        }
    }

    /** A range from ISO dates: of("2024-01-01", "2024-01-31"). */
    public static DateRange of(String start, String end) {
        return new DateRange(LocalDate.parse(start), LocalDate.parse(end));
    }

    public LocalDate getStart() {
        return start;
    }

    public LocalDate getEnd() {
        return end;
    }

    public long days() {
        return ChronoUnit.DAYS.between(start, end) + 1;
    }

    public boolean contains(LocalDate day) {
        return !day.isBefore(start) && !day.isAfter(end);
    }

    /** Whether the two ranges share at least one day. */
    public boolean overlaps(DateRange other) {
        return !start.isAfter(other.end) && !other.start.isAfter(end);
    }

    /** The days both ranges cover, or null when they share none. */
    public DateRange intersection(DateRange other) {
        LocalDate from = start.isAfter(other.start) ? start : other.start;
        LocalDate to = end.isBefore(other.end) ? end : other.end;
        if (from.isAfter(to)) {
            return null;
        }
        return new DateRange(from, to);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DateRange && ((DateRange) o).start.equals(start) && ((DateRange) o).end.equals(end);
    }

    @Override
    public int hashCode() {
        return Objects.hash(start, end);
    }

    @Override
    public String toString() {
        return start + ".." + end;
    }
}
