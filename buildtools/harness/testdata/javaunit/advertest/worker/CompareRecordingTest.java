package advertest.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import advertest.worker.hook.Compares;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Rewriter.recordCompares and hook.Compares: what a recording run notes, and that it changes no result. */
class CompareRecordingTest {
    public enum Mode { FAST, SLOW }

    /** A parser comparing its input in every way the recording knows. */
    public static class Parser {
        private static final Map<String, Integer> KEYWORDS = new HashMap<>();

        static {
            KEYWORDS.put("kwa", 1);
        }

        public static String parse(String s) {
            if (s.startsWith("hd:")) {
                return "head";
            }
            if (s.endsWith("~tl")) {
                return "tail";
            }
            if (s.equals("whole")) {
                return "whole";
            }
            if (s.indexOf('@') >= 0) {
                return "at";
            }
            if (!s.isEmpty() && s.charAt(0) == '#') {
                return "hash";
            }
            if (!s.isEmpty() && Character.isDigit(s.charAt(0))) {
                return "digit";
            }
            if (KEYWORDS.get(s) != null) {
                return "keyword";
            }
            switch (s.isEmpty() ? ' ' : s.charAt(0)) {
                case 'x':
                    return "x";
                case 'y':
                    return "y";
                default:
                    return "none";
            }
        }

        /** Enum.valueOf as an enum's own valueOf calls it (the enum's class is rewritten in a run). */
        public static Mode mode(String s) {
            return Enum.valueOf(Mode.class, s);
        }

        public static boolean nullEquals(String s) {
            return s.equals("a");
        }
    }

    public static class Plain {
        public static int add(int a, int b) {
            return a + b;
        }
    }

    private static Method parse() throws Exception {
        byte[] rewritten = Rewriter.recordCompares(RewriterTest.bytesOf(Parser.class));
        return RewriterTest.define(Parser.class.getName(), rewritten).getMethod("parse", String.class);
    }

    private static List<String> notes() {
        List<String> out = new ArrayList<>();
        for (String[] n : Compares.drain()) {
            out.add(String.join("|", Arrays.asList(n).toString()));
        }
        return out;
    }

    @Test
    void notesWhatTheInputIsComparedWith() throws Exception {
        Method m = parse();
        Compares.enable(true);
        try {
            assertEquals("none", m.invoke(null, "q"));
            String all = notes().toString();
            for (String want : new String[] {"[s, q, hd:]", "[s, q, ~tl]", "[s, q, whole]", "[i, 64]", "[i, 35]",
                "[c, isDigit]", "[s, kwa, null]", "[k, xy]"}) {
                assertTrue(all.contains(want), want + " not in " + all);
            }
            assertTrue(notes().isEmpty(), "drain forgets");
        } finally {
            Compares.enable(false);
        }
    }

    @Test
    void resultsAreTheOriginals() throws Exception {
        Method m = parse();
        Compares.enable(true);
        try {
            for (String in : new String[] {"hd:1", "a~tl", "whole", "a@b", "#1", "7", "kwa", "x", "y", ""}) {
                assertEquals(Parser.parse(in), m.invoke(null, in), in);
            }
            byte[] rewritten = Rewriter.recordCompares(RewriterTest.bytesOf(Parser.class));
            Class<?> c = RewriterTest.define(Parser.class.getName(), rewritten);
            assertEquals(Mode.SLOW, c.getMethod("mode", String.class).invoke(null, "SLOW"));
            assertTrue(notes().toString().contains("[s, FAST, null]"), "an enum's names");
            InvocationTargetException e = assertThrows(InvocationTargetException.class,
                () -> c.getMethod("nullEquals", String.class).invoke(null, (Object) null));
            assertTrue(e.getCause() instanceof NullPointerException, "a null receiver still throws: " + e.getCause());
        } finally {
            Compares.enable(false);
        }
    }

    @Test
    void offNotesNothing() throws Exception {
        Method m = parse();
        Compares.enable(false);
        assertEquals("head", m.invoke(null, "hd:x"));
        assertTrue(notes().isEmpty());
    }

    @Test
    void aClassWithoutComparisonsIsUnchanged() throws Exception {
        byte[] in = RewriterTest.bytesOf(Plain.class);
        assertSame(in, Rewriter.recordCompares(in));
        byte[] parser = RewriterTest.bytesOf(Parser.class);
        assertNotSame(parser, Rewriter.recordCompares(parser));
        assertEquals(Arrays.toString(Rewriter.recordCompares(parser)), Arrays.toString(Rewriter.recordCompares(parser.clone())), "deterministic");
    }
}
