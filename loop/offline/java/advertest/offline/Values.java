package advertest.offline;

import advertest.offline.Gen.Const;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Value types of the JDK that a test writes as one expression and compares with equals: dates,
 * durations, big numbers. Inputs draws them from small boundary pools (a leap day, the turn of a
 * year); Observer renders them back as the same expressions.
 */
final class Values {
    private Values() {
    }

    static boolean known(Class<?> c) {
        return c == LocalDate.class || c == BigInteger.class || c == BigDecimal.class || c == Duration.class
            || c == java.util.Random.class || c == java.time.Clock.class || c == java.time.Instant.class;
    }

    static List<Gen> pool(Class<?> c) {
        List<Gen> out = new ArrayList<>();
        if (c == LocalDate.class) {
            int[][] days = {{2024, 1, 1}, {2024, 1, 2}, {2024, 1, 31}, {2024, 2, 29}, {2023, 12, 31}, {2024, 3, 1}, {2024, 12, 31}};
            for (int[] d : days) {
                LocalDate v = LocalDate.of(d[0], d[1], d[2]);
                out.add(new Const(v, expr(v), "D" + v.toString().replace("-", ""), "java.time.LocalDate"));
            }
        } else if (c == BigInteger.class) {
            for (long v : new long[] {0, 1, -1, 10, Long.MAX_VALUE}) {
                BigInteger b = BigInteger.valueOf(v);
                out.add(new Const(b, expr(b), "Big" + Exprs.camelNumber(b.toString()), "java.math.BigInteger"));
            }
        } else if (c == BigDecimal.class) {
            for (String v : new String[] {"0", "1", "-1", "0.5", "10.25"}) {
                BigDecimal b = new BigDecimal(v);
                out.add(new Const(b, expr(b), "Big" + Exprs.camelNumber(v), "java.math.BigDecimal"));
            }
        } else if (c == Duration.class) {
            for (long s : new long[] {0, 1, 59, 60, 3600, 86400}) {
                Duration d = Duration.ofSeconds(s);
                out.add(new Const(d, expr(d), "Seconds" + s, "java.time.Duration"));
            }
        } else if (c == java.util.Random.class) {
            // seeded: the same numbers in every run
            for (long seed : new long[] {1, 42}) {
                out.add(new SeededRandom(seed));
            }
        } else if (c == java.time.Instant.class || c == java.time.Clock.class) {
            // time that only moves on: fixed instants a second apart
            for (long ms : new long[] {0, 1000, 2000, 60_000, 86_400_000}) {
                java.time.Instant at = java.time.Instant.ofEpochMilli(ms);
                if (c == java.time.Instant.class) {
                    out.add(new Const(at, "Instant.ofEpochMilli(" + ms + "L)", "At" + ms, "java.time.Instant"));
                } else {
                    out.add(new Const(java.time.Clock.fixed(at, java.time.ZoneOffset.UTC),
                        "Clock.fixed(Instant.ofEpochMilli(" + ms + "L), ZoneOffset.UTC)", "ClockAt" + ms,
                        "java.time.Clock", "java.time.Instant", "java.time.ZoneOffset"));
                }
            }
        }
        return out;
    }

    /** A java.util.Random with a fixed seed, made afresh for each call (it has state). */
    static final class SeededRandom extends Gen {
        final long seed;

        SeededRandom(long seed) {
            this.seed = seed;
        }

        Object make() {
            return new java.util.Random(seed);
        }

        String expr(Names names) {
            names.imports.add("java.util.Random");
            return "new Random(" + seed + "L)";
        }

        String token() {
            return "Seed" + seed;
        }
    }

    /** The Java expression equal to v, or null when v is not a known value. */
    static String expr(Object v) {
        if (v instanceof LocalDate) {
            LocalDate d = (LocalDate) v;
            return "LocalDate.of(" + d.getYear() + ", " + d.getMonthValue() + ", " + d.getDayOfMonth() + ")";
        }
        if (v instanceof BigInteger) {
            return "new BigInteger(" + Exprs.stringExpr(v.toString()) + ")";
        }
        if (v instanceof BigDecimal) {
            return "new BigDecimal(" + Exprs.stringExpr(v.toString()) + ")";
        }
        if (v instanceof java.time.Instant) {
            return "Instant.ofEpochMilli(" + ((java.time.Instant) v).toEpochMilli() + "L)";
        }
        if (v instanceof Duration) {
            Duration d = (Duration) v;
            return d.getNano() == 0 ? "Duration.ofSeconds(" + d.getSeconds() + "L)" : "Duration.parse(" + Exprs.stringExpr(d.toString()) + ")";
        }
        return null;
    }

    /** The import v's expression needs. */
    static String importOf(Object v) {
        return v.getClass().getName();
    }
}
