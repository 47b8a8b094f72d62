package org.acme;

import java.io.IOException;
import java.io.Writer;
import java.util.Calendar;
import java.util.Date;
import java.util.Locale;
import java.util.TimeZone;
import java.util.function.IntUnaryOperator;

/**
 * A fixture of the offline agent's argument types: a char sequence compared as String and as
 * anything else, a writer written to, an interface and an abstract class that only the class's
 * own implementations make, enums, varargs, nested arrays, locales, time zones, dates, lambdas
 * and classes.
 */
public class Args {
    /** Two abstract methods: not a lambda's type. */
    public interface Shape {
        int area();

        String label();
    }

    public abstract static class Base implements Shape {
        public String label() {
            return "base";
        }
    }

    public static final class Square implements Shape {
        private final int side;

        public Square(int side) {
            this.side = side;
        }

        public int area() {
            return side * side;
        }

        public String label() {
            return "square";
        }
    }

    public static final class Rect extends Base {
        private final int w;
        private final int h;

        public Rect(int w, int h) {
            this.w = w;
            this.h = h;
        }

        public int area() {
            return w * h;
        }
    }

    public enum Level { LOW, MID, HIGH }

    /** As StringUtils.equals: Strings by equals, other sequences char by char. */
    public static boolean same(CharSequence cs1, CharSequence cs2) {
        if (cs1 == cs2) {
            return true;
        }
        if (cs1 == null || cs2 == null) {
            return false;
        }
        if (cs1.length() != cs2.length()) {
            return false;
        }
        if (cs1 instanceof String && cs2 instanceof String) {
            return cs1.equals(cs2);
        }
        for (int i = 0; i < cs1.length(); i++) {
            if (cs1.charAt(i) != cs2.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    public static void escape(CharSequence in, Writer out) throws IOException {
        for (int i = 0; i < in.length(); i++) {
            char c = in.charAt(i);
            if (c == '<') {
                out.write("&lt;");
            } else if (c == '&') {
                out.write("&amp;");
            } else {
                out.write(c);
            }
        }
    }

    public static String describe(Shape s) {
        return s.label() + " of " + s.area();
    }

    public static int twice(Base b) {
        return 2 * b.area();
    }

    public static String join(Level level, String... parts) {
        StringBuilder sb = new StringBuilder(level == Level.HIGH ? "!" : "");
        for (String p : parts) {
            sb.append(p).append(level == Level.LOW ? "," : ";");
        }
        return sb.toString();
    }

    public static int cells(CharSequence[][] table) {
        int n = 0;
        for (CharSequence[] row : table) {
            for (CharSequence c : row) {
                n += c.length();
            }
        }
        return n;
    }

    public static String tag(Locale locale) {
        String t = locale.getLanguage();
        if (!locale.getCountry().isEmpty()) {
            t += "_" + locale.getCountry();
        }
        if (!locale.getVariant().isEmpty()) {
            t += "_" + locale.getVariant();
        }
        return t;
    }

    public static int hourIn(TimeZone zone, Date at) {
        Calendar c = Calendar.getInstance(zone, Locale.ROOT);
        c.setTime(at);
        return c.get(Calendar.HOUR_OF_DAY);
    }

    public static int applyTwice(IntUnaryOperator f, int x) {
        return f.applyAsInt(f.applyAsInt(x));
    }

    /** Its result's read() and available() throw IOException: never observed (a test calling them would not compile). */
    public static java.io.InputStream buffered(java.io.InputStream in) {
        return new java.io.BufferedInputStream(in);
    }

    /** An iterator of arrays: its lists are written with their element type. */
    public static double sum(java.util.Iterator<double[]> rows) {
        double s = 0;
        while (rows.hasNext()) {
            for (double d : rows.next()) {
                s += d;
            }
        }
        return s;
    }

    public static String kind(Class<?> c) {
        return c.isPrimitive() ? "primitive" : c.isInterface() ? "interface" : c.isArray() ? "array" : "class";
    }

    /** A type variable with a bound, then varargs: found by its erasure (Collection), not its text (T). */
    public static <T extends java.util.Collection<?>> T atLeast(final T items, final int size, final Object... why) {
        if (items.size() < size) {
            throw new IllegalArgumentException(String.valueOf(why.length));
        }
        return items;
    }

    /** An interface of the JDK that only the JDK's enums implement (StandardOpenOption, LinkOption). */
    public static int appends(final java.nio.file.OpenOption... options) {
        int n = 0;
        for (java.nio.file.OpenOption o : options) {
            if (o == java.nio.file.StandardOpenOption.APPEND) {
                n++;
            }
        }
        return n;
    }

    /** A project class every instance of which the explorer makes throws: no spec is long enough. */
    public static final class Strict {
        public Strict(String spec) {
            if (spec.length() < 1000) {
                throw new NullPointerException("spec too short");
            }
        }

        public boolean knows(String name) {
            return true;
        }
    }

    /** Keeps a Strict it may go without (CSVRecord keeps its CSVParser so). */
    public static final class Row {
        private final Strict strict;
        private final String[] cells;

        public Row(Strict strict, String[] cells) {
            this.strict = strict;
            this.cells = cells;
        }

        public Row(String[] cells, Strict strict) {
            this(strict, cells);
        }

        public int width() {
            return cells.length;
        }

        public boolean isSet(String name) {
            if (strict != null) {
                return strict.knows(name);
            }
            return cells.length > 0 && cells[0].equals(name);
        }
    }

    /** An F-bounded element type (FieldElement<T> in commons-math). */
    public interface Elem<T extends Elem<T>> {
        T plus(T other);

        int value();
    }

    public static final class Num implements Elem<Num> {
        final int n;

        public Num(int n) {
            this.n = n;
        }

        public Num plus(Num other) {
            return new Num(n + other.n);
        }

        public int value() {
            return n;
        }
    }

    /** A method over an F-bounded type variable: T stands for its raw bound, Elem. */
    public static <T extends Elem<T>> int twiceOf(T a) {
        return a.plus(a).value();
    }
}
