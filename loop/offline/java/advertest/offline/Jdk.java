package advertest.offline;

import advertest.offline.Gen.Const;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.Writer;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.MonthDay;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.Date;
import java.util.GregorianCalendar;
import java.util.List;
import java.util.Locale;
import java.util.TimeZone;
import java.util.concurrent.Callable;

/**
 * The JDK's argument types a test builds in one expression: char sequences as String and
 * StringBuilder, writers and appendables that the test reads after the call (StringWriter,
 * StringBuilder, ByteArrayOutputStream), readers over the string pool, locales (the root, a few
 * countries and languages, one with a variant), time zones, dates and calendars at fixed
 * instants (never the clock), java.time values. Mutable ones are made afresh for each call.
 * Observer renders the immutable ones back as the same expressions (expr).
 */
final class Jdk {
    private Jdk() {
    }

    /** The types whose pools are made here. */
    static boolean handles(Class<?> c) {
        return c == CharSequence.class || c == StringBuilder.class || c == StringBuffer.class || c == Appendable.class
            || c == Writer.class || c == StringWriter.class || c == OutputStream.class || c == ByteArrayOutputStream.class
            || c == Reader.class || c == StringReader.class || c == InputStream.class || c == ByteArrayInputStream.class
            || c == Calendar.class || c == GregorianCalendar.class || c == Date.class || c == java.nio.file.Path.class
            || c == java.util.Iterator.class || known(c);
    }

    /** Immutable value types written as one expression and compared with equals (rendered by expr). */
    static boolean known(Class<?> c) {
        return c == Locale.class || c == TimeZone.class || c == LocalDateTime.class || c == LocalTime.class
            || c == ZonedDateTime.class || c == OffsetDateTime.class || c == ZoneId.class || c == ZoneOffset.class
            || c == Period.class || c == Year.class || c == YearMonth.class || c == MonthDay.class;
    }

    /** A value made afresh by each make() (a call may change it), written as expr. */
    static final class Made extends Gen {
        final Callable<Object> maker;
        final String expr;
        final String token;
        final String kind;
        final String[] imports;

        Made(Callable<Object> maker, String expr, String token, String kind, String... imports) {
            this.maker = maker;
            this.expr = expr;
            this.token = token;
            this.kind = kind;
            this.imports = imports;
        }

        Object make() throws Exception {
            return maker.call();
        }

        String expr(Names names) {
            names.imports.addAll(Arrays.asList(imports));
            return expr;
        }

        String token() {
            return token;
        }

        @Override
        void kinds(String at, java.util.Set<String> out) {
            out.add(at + kind);
        }
    }

    /**
     * The pool of c (handles(c), type its generic form); in's String pool gives the text of the
     * char sequences, builders and readers, its pool of an iterator's element type the elements.
     */
    static List<Gen> pool(Type type, Class<?> c, Inputs in, int depth) throws Unsupported {
        List<Gen> strings = in.pool(String.class, depth);
        List<Gen> out = new ArrayList<>();
        List<Const> texts = new ArrayList<>();
        for (Gen g : strings) {
            if (g != Gen.NULL && g instanceof Const) {
                texts.add((Const) g);
            }
        }
        if (c == CharSequence.class) {
            // each of the first strings also as a StringBuilder, next to it: a search over a
            // CharSequence tries both kinds early (code that tests instanceof String)
            for (int i = 0; i < texts.size(); i++) {
                out.add(texts.get(i));
                if (i < 4 || i % 5 == 0) {
                    out.add(builder(StringBuilder.class, texts.get(i)));
                }
            }
        } else if (c == StringBuilder.class || c == StringBuffer.class) {
            for (Const t : texts) {
                out.add(builder(c, t));
            }
        } else if (c == Appendable.class || c == Writer.class || c == StringWriter.class) {
            out.add(new Made(StringWriter::new, "new StringWriter()", "Writer", "StringWriter", "java.io.StringWriter"));
            if (c == Appendable.class) {
                out.add(builder(StringBuilder.class, new Const("", "\"\"", "Empty")));
            }
            out.add(new Made(() -> new StringWriter().append("x"), "new StringWriter().append(\"x\")", "WriterWithX", "StringWriter",
                "java.io.StringWriter"));
        } else if (c == OutputStream.class || c == ByteArrayOutputStream.class) {
            out.add(new Made(ByteArrayOutputStream::new, "new ByteArrayOutputStream()", "Stream", "ByteArrayOutputStream",
                "java.io.ByteArrayOutputStream"));
        } else if (c == Reader.class || c == StringReader.class) {
            for (Const t : texts) {
                final String s = (String) t.value;
                out.add(new Made(() -> new StringReader(s), "new StringReader(" + t.expr + ")", "Reader" + t.token, "StringReader",
                    "java.io.StringReader"));
            }
        } else if (c == InputStream.class || c == ByteArrayInputStream.class) {
            for (Const t : texts) {
                final String s = (String) t.value;
                out.add(new Made(() -> new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8)),
                    "new ByteArrayInputStream(" + t.expr + ".getBytes(StandardCharsets.UTF_8))", "Bytes" + t.token, "ByteArrayInputStream",
                    "java.io.ByteArrayInputStream", "java.nio.charset.StandardCharsets"));
            }
        } else if (c == java.nio.file.Path.class) {
            // relative paths only: what they name depends on the folder the test runs in, never on the machine
            for (String[] parts : new String[][] {{"a"}, {"a", "b.txt"}, {""}, {"a", "..", "b"}}) {
                StringBuilder e = new StringBuilder("Paths.get(");
                for (int i = 0; i < parts.length; i++) {
                    e.append(i == 0 ? "" : ", ").append(Exprs.stringExpr(parts[i]));
                }
                String[] more = java.util.Arrays.copyOfRange(parts, 1, parts.length);
                out.add(new Const(java.nio.file.Paths.get(parts[0], more), e.append(')').toString(),
                    "Path" + Exprs.stringToken(String.join("/", parts)), "java.nio.file.Paths"));
            }
        } else if (c == java.util.Iterator.class) {
            Type elem = Types.typeArg(type, 0);
            List<Gen> elems = Combinations.nonNull(in.pool(elem, depth));
            out.add(iterator(elem, new ArrayList<>()));
            for (List<Gen> es : Combinations.small(elems)) {
                out.add(iterator(elem, es));
            }
        } else if (c == Date.class) {
            // fixed instants: the epoch, a day later, a leap day, a second before a new year, before the epoch
            for (long ms : new long[] {0L, 86_400_000L, 951_782_400_000L, 1_704_067_199_000L, -1000L}) {
                out.add(new Made(() -> new Date(ms), "new Date(" + ms + "L)", "Date" + Exprs.camelNumber(Long.toString(ms)), "Date",
                    "java.util.Date"));
            }
        } else if (c == Calendar.class || c == GregorianCalendar.class) {
            String cast = c == GregorianCalendar.class ? "(GregorianCalendar) " : "";
            for (String zone : new String[] {"UTC", "America/New_York"}) {
                for (long ms : new long[] {0L, 1_709_208_000_000L, 1_704_067_199_000L}) {
                    out.add(new Made(() -> new Calendar.Builder().setTimeZone(TimeZone.getTimeZone(zone)).setLocale(Locale.ROOT)
                        .setInstant(ms).build(), cast + "new Calendar.Builder().setTimeZone(TimeZone.getTimeZone(\"" + zone
                        + "\")).setLocale(Locale.ROOT).setInstant(" + ms + "L).build()", "Calendar" + Exprs.stringToken(zone) + ms,
                        "Calendar", "java.util.Calendar", "java.util.GregorianCalendar", "java.util.TimeZone", "java.util.Locale"));
                }
            }
        } else {
            for (Object v : values(c)) {
                Names names = new Names("");
                String e = expr(v, names);
                out.add(new Const(v, e, token(v), names.imports.toArray(new String[0])));
            }
        }
        out.add(Gen.NULL);
        return out;
    }

    /**
     * An iterator over a fresh list, its element type written out (Arrays.<Integer>asList(1,
     * 2).iterator(), Collections.<Integer>emptyIterator()): a receiver is not target-typed, so
     * the list's type would otherwise be its elements' (Object for none).
     */
    private static Gen iterator(Type elem, List<Gen> es) {
        return new Gen() {
            Object make() throws Throwable {
                List<Object> l = new ArrayList<>();
                for (Gen g : es) {
                    l.add(g.make());
                }
                return l.iterator();
            }

            String expr(Names names) {
                String t = names.decl(elem);
                if (es.isEmpty()) {
                    names.imports.add("java.util.Collections");
                    return "Collections.<" + t + ">emptyIterator()";
                }
                names.imports.add("java.util.Arrays");
                StringBuilder sb = new StringBuilder("Arrays.<" + t + ">asList(");
                for (int i = 0; i < es.size(); i++) {
                    sb.append(i == 0 ? "" : ", ").append(es.get(i).expr(names));
                }
                return sb.append(").iterator()").toString();
            }

            String token() {
                return es.isEmpty() ? "EmptyIterator" : "IteratorOf" + es.size();
            }

            @Override
            void kinds(String at, java.util.Set<String> out) {
                out.add(at + "Iterator");
                for (Gen g : es) {
                    g.kinds(at + "Iterator<>", out);
                }
            }
        };
    }

    static Gen builder(Class<?> c, Const text) {
        final String s = (String) text.value;
        String name = c.getSimpleName();
        Callable<Object> make = c == StringBuffer.class ? () -> new StringBuffer(s) : () -> new StringBuilder(s);
        return new Made(make, "new " + name + "(" + text.expr + ")", name.replace("String", "") + text.token, name);
    }

    /** The immutable values of a known type, simplest first. */
    private static List<Object> values(Class<?> c) {
        if (c == Locale.class) {
            return Arrays.<Object>asList(Locale.ROOT, Locale.US, Locale.FRENCH, Locale.GERMANY, Locale.CANADA_FRENCH, Locale.JAPAN,
                new Locale("es", "ES", "Traditional_WIN"));
        }
        if (c == TimeZone.class) {
            List<Object> out = new ArrayList<>();
            for (String id : new String[] {"UTC", "America/New_York", "Asia/Kolkata", "Pacific/Kiritimati"}) {
                out.add(TimeZone.getTimeZone(id));
            }
            return out;
        }
        if (c == ZoneId.class || c == ZoneOffset.class) {
            List<Object> out = new ArrayList<>(Arrays.asList(ZoneOffset.UTC, ZoneOffset.ofHours(-5), ZoneOffset.ofHoursMinutes(5, 30)));
            if (c == ZoneId.class) {
                out.add(ZoneId.of("Europe/Paris"));
            }
            return out;
        }
        if (c == LocalDateTime.class) {
            return Arrays.<Object>asList(LocalDateTime.of(2024, 1, 1, 0, 0), LocalDateTime.of(2024, 2, 29, 12, 30, 15),
                LocalDateTime.of(2023, 12, 31, 23, 59, 59));
        }
        if (c == LocalTime.class) {
            return Arrays.<Object>asList(LocalTime.MIDNIGHT, LocalTime.NOON, LocalTime.of(23, 59, 59), LocalTime.of(0, 0, 1));
        }
        if (c == ZonedDateTime.class) {
            return Arrays.<Object>asList(ZonedDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
                ZonedDateTime.of(2024, 3, 31, 2, 30, 0, 0, ZoneId.of("Europe/Paris")),
                ZonedDateTime.of(2023, 12, 31, 23, 59, 59, 0, ZoneOffset.ofHours(-5)));
        }
        if (c == OffsetDateTime.class) {
            return Arrays.<Object>asList(OffsetDateTime.of(2024, 1, 1, 0, 0, 0, 0, ZoneOffset.UTC),
                OffsetDateTime.of(2024, 2, 29, 12, 0, 0, 0, ZoneOffset.ofHours(-5)));
        }
        if (c == Period.class) {
            return Arrays.<Object>asList(Period.ZERO, Period.ofDays(1), Period.of(1, 2, 3), Period.ofDays(-1));
        }
        if (c == Year.class) {
            return Arrays.<Object>asList(Year.of(2024), Year.of(2023), Year.of(1900), Year.of(2000));
        }
        if (c == YearMonth.class) {
            return Arrays.<Object>asList(YearMonth.of(2024, 2), YearMonth.of(2023, 2), YearMonth.of(2024, 12));
        }
        if (c == MonthDay.class) {
            return Arrays.<Object>asList(MonthDay.of(1, 1), MonthDay.of(2, 29), MonthDay.of(12, 31));
        }
        return new ArrayList<>();
    }

    private static String token(Object v) {
        if (v instanceof TimeZone) {
            return "Zone" + Exprs.stringToken(((TimeZone) v).getID());
        }
        if (v instanceof Locale) {
            return v.equals(Locale.ROOT) ? "RootLocale" : "Locale" + Exprs.stringToken(v.toString());
        }
        return v.getClass().getSimpleName() + Exprs.stringToken(v.toString());
    }

    /** The Java expression equal to v (adding its imports to names), or null when v is not a known value. */
    static String expr(Object v, Names names) {
        if (v == null || !known(v.getClass()) && !(v instanceof ZoneId) && !(v instanceof TimeZone) && v.getClass() != Date.class) {
            return null;
        }
        if (v instanceof Locale) {
            names.imports.add("java.util.Locale");
            Locale l = (Locale) v;
            for (String k : new String[] {"ROOT", "US", "UK", "FRENCH", "FRANCE", "GERMAN", "GERMANY", "ENGLISH", "CANADA_FRENCH", "JAPAN"}) {
                try {
                    if (Locale.class.getField(k).get(null).equals(l)) {
                        return "Locale." + k;
                    }
                } catch (ReflectiveOperationException e) {
                    // not a constant of this JDK
                }
            }
            if (!l.getScript().isEmpty() || l.hasExtensions()) {
                return "Locale.forLanguageTag(" + Exprs.stringExpr(l.toLanguageTag()) + ")";
            }
            return "new Locale(" + Exprs.stringExpr(l.getLanguage()) + ", " + Exprs.stringExpr(l.getCountry()) + ", "
                + Exprs.stringExpr(l.getVariant()) + ")";
        }
        if (v instanceof TimeZone) {
            names.imports.add("java.util.TimeZone");
            return "TimeZone.getTimeZone(" + Exprs.stringExpr(((TimeZone) v).getID()) + ")";
        }
        if (v instanceof Date) {
            names.imports.add("java.util.Date");
            return "new Date(" + ((Date) v).getTime() + "L)";
        }
        if (v instanceof ZoneOffset) {
            names.imports.add("java.time.ZoneOffset");
            return v.equals(ZoneOffset.UTC) ? "ZoneOffset.UTC" : "ZoneOffset.of(" + Exprs.stringExpr(v.toString()) + ")";
        }
        if (v instanceof ZoneId) {
            names.imports.add("java.time.ZoneId");
            return "ZoneId.of(" + Exprs.stringExpr(((ZoneId) v).getId()) + ")";
        }
        if (v instanceof Period && v.equals(Period.ZERO)) {
            names.imports.add("java.time.Period");
            return "Period.ZERO";
        }
        // the rest parse their own ISO text
        String type = v.getClass().getSimpleName();
        names.imports.add(v.getClass().getName());
        return type + ".parse(" + Exprs.stringExpr(v.toString()) + ")";
    }
}
