package org.faultbench.time;

/** Human-readable durations. */
public final class Durations {

    private Durations() {
    }

    /** "1h 02m 03s" for 3723 seconds; without hours "2m 05s" and "0m 07s". */
    public static String format(long totalSeconds) {
        if (totalSeconds < 0) {
            throw new IllegalArgumentException("negative duration: " + totalSeconds);
        }
        long hours = totalSeconds / 3600;
        long minutes = totalSeconds % 3600 / 60;
        long seconds = totalSeconds % 60;
        if (hours > 0) {
            return String.format("%dh %02dm %02ds", hours, minutes, seconds);
        }
        return String.format("%dm %02ds", minutes, seconds);
    }
}
