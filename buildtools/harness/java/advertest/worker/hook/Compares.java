package advertest.worker.hook;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The recorder of a run that asks for comparisons (the run request's recordCompares,
 * docs/worker-protocol.md): the rewriter (Rewriter.recordCompares) turns the String
 * comparisons, the Character class tests, the comparisons with an int constant, the switches and
 * the keyword lookups (Map.get/containsKey, Collection.contains, Enum.valueOf) of that run's
 * classes into calls of this class, which note the operands and then do what the original
 * instruction did. The offline explorer's seeding pass drains the notes after each call and
 * makes new inputs of them (dynamic seeding). Every run loader delegates this package to the
 * worker's own loader, so the rewritten classes and the explorer (through reflection) meet here.
 *
 * <p>Bounded: at most {@link #MAX_NOTES} notes between two drains, strings of at most
 * {@link #MAX_LENGTH} characters, {@link #MAX_ELEMENTS} elements of a collection or map. Off
 * (nothing noted) unless the worker switched it on for the run: a thread an earlier run left
 * behind cannot fill a later run's notes.
 */
public final class Compares {
    private Compares() {
    }

    static final int MAX_NOTES = 512;
    static final int MAX_LENGTH = 40;
    static final int MAX_ELEMENTS = 24;

    /** The kinds of note: the first element of each drained array. */
    public static final String STRINGS = "s";
    public static final String INT = "i";
    public static final String CHAR_CLASS = "c";
    public static final String KEYS = "k";

    private static volatile boolean on;
    private static final List<String[]> NOTES = new ArrayList<>();

    /** Switches recording on or off; either way, the notes so far are dropped. */
    public static synchronized void enable(boolean enabled) {
        on = enabled;
        NOTES.clear();
    }

    /**
     * The notes since the last drain, oldest first, and forgets them: {"s", a, b} two strings
     * compared (either may be null), {"i", n} an int constant compared, {"c", "isDigit"} a
     * Character class asked, {"k", keys} the keys of a switch as characters.
     */
    public static synchronized List<String[]> drain() {
        List<String[]> out = new ArrayList<>(NOTES);
        NOTES.clear();
        return out;
    }

    private static synchronized void note(String... note) {
        if (NOTES.size() < MAX_NOTES) {
            NOTES.add(note);
        }
    }

    private static String bounded(Object o) {
        if (!(o instanceof CharSequence)) {
            return null;
        }
        CharSequence cs = (CharSequence) o;
        return cs.length() > MAX_LENGTH ? null : cs.toString();
    }

    private static void pair(Object a, Object b) {
        if (on) {
            String x = bounded(a);
            String y = bounded(b);
            if (x != null || y != null) {
                note(STRINGS, x, y);
            }
        }
    }

    private static void chr(int c) {
        if (on) {
            note(INT, Integer.toString(c));
        }
    }

    // String's comparisons: same result (and NullPointerException on a null receiver) as String's.

    public static boolean equals(String s, Object o) {
        pair(s, o);
        return s.equals(o);
    }

    public static boolean equalsIgnoreCase(String s, String o) {
        pair(s, o);
        return s.equalsIgnoreCase(o);
    }

    public static boolean startsWith(String s, String p) {
        pair(s, p);
        return s.startsWith(p);
    }

    public static boolean startsWith(String s, String p, int from) {
        pair(s, p);
        return s.startsWith(p, from);
    }

    public static boolean endsWith(String s, String p) {
        pair(s, p);
        return s.endsWith(p);
    }

    public static boolean contains(String s, CharSequence p) {
        pair(s, p);
        return s.contains(p);
    }

    public static int indexOf(String s, String p) {
        pair(s, p);
        return s.indexOf(p);
    }

    public static int indexOf(String s, String p, int from) {
        pair(s, p);
        return s.indexOf(p, from);
    }

    public static int lastIndexOf(String s, String p) {
        pair(s, p);
        return s.lastIndexOf(p);
    }

    public static int indexOf(String s, int c) {
        s.length(); // the receiver's null check comes first, as in String
        chr(c);
        return s.indexOf(c);
    }

    public static int indexOf(String s, int c, int from) {
        s.length();
        chr(c);
        return s.indexOf(c, from);
    }

    public static int lastIndexOf(String s, int c) {
        s.length();
        chr(c);
        return s.lastIndexOf(c);
    }

    public static int compareTo(String s, String o) {
        pair(s, o);
        return s.compareTo(o);
    }

    public static int compareToIgnoreCase(String s, String o) {
        pair(s, o);
        return s.compareToIgnoreCase(o);
    }

    public static boolean objectsEquals(Object a, Object b) {
        pair(a, b);
        return java.util.Objects.equals(a, b);
    }

    /** A comparison with the int constant c (the rewriter passes the constant it saw). */
    public static void constant(int c) {
        chr(c);
    }

    /** A Character class test (isDigit, isLetter, ...) about to run. */
    public static void charClass(String name) {
        if (on) {
            note(CHAR_CLASS, name);
        }
    }

    /** A switch about to run: its keys that are characters, as a string. */
    public static void keys(String keys) {
        if (on) {
            note(KEYS, keys);
        }
    }

    // Keyword lookups: a String looked up in a table notes the table's strings.

    /**
     * Notes the strings among es's first elements. Only the JDK's own collections are read (a
     * project's could do anything when iterated), and a concurrent change only loses the note.
     */
    private static void elements(Iterable<?> es, Object key) {
        if (!(key instanceof String)) {
            return;
        }
        try {
            int n = 0;
            for (Object e : es) {
                if (++n > MAX_ELEMENTS) {
                    break;
                }
                pair(e, null);
            }
        } catch (RuntimeException e) {
            // ConcurrentModificationException and the like: the notes are hints, the call goes on
        }
    }

    private static boolean jdk(Object o) {
        return o != null && o.getClass().getName().startsWith("java.util.");
    }

    public static Object mapGet(Map<?, ?> m, Object key) {
        if (on && jdk(m)) {
            elements(m.keySet(), key);
        }
        return m.get(key);
    }

    public static boolean mapContainsKey(Map<?, ?> m, Object key) {
        if (on && jdk(m)) {
            elements(m.keySet(), key);
        }
        return m.containsKey(key);
    }

    public static boolean collectionContains(Collection<?> c, Object o) {
        if (on && jdk(c)) {
            elements(c, o);
        }
        return c.contains(o);
    }

    /** Enum.valueOf(type, name): the enum's constant names. */
    public static <T extends Enum<T>> T enumValueOf(Class<T> type, String name) {
        if (on && type != null && type.isEnum()) {
            T[] cs = type.getEnumConstants();
            for (int i = 0; i < cs.length && i < MAX_ELEMENTS; i++) {
                pair(cs[i].name(), null);
            }
        }
        return Enum.valueOf(type, name);
    }
}
