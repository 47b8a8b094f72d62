package advertest.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Digest: what makes two compiles equal, what keeps them apart, and how a schema resolves. */
class DigestTest {
    private static final MemCompiler JAVAC = compiler();

    private static MemCompiler compiler() {
        try {
            // The schema's switch, as Worker.init puts it on javac's class path.
            List<String> cp = new java.util.ArrayList<>(Arrays.asList(System.getProperty("java.class.path").split(java.io.File.pathSeparator)));
            cp.add(java.nio.file.Path.of(advertest.worker.hook.Mutant.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
            return new MemCompiler(cp, "11", List.of());
        } catch (java.io.IOException | java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The digests of class p.F compiled from a body. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> digest(String body) {
        List<MemCompiler.Source> srcs = List.of(new MemCompiler.Source("p.F", "package p;\npublic class F {\n" + body + "\n}\n", true));
        MemCompiler.Result r = JAVAC.compile(srcs);
        assertTrue(r.ok, () -> "does not compile: " + r.diagnostics);
        r.digest(srcs);
        return (Map<String, Object>) ((Map<String, Object>) r.toJson().get("digests")).get("p.F");
    }

    private static String original(String body) {
        return (String) digest(body).get("original");
    }

    @Test
    void constantFoldingAndDeadCodeGiveTheOriginalsBytecode() {
        String orig = original("static final boolean DEBUG = false;\n int f(int x) {\n if (DEBUG) { x++; }\n return x * 6; }");
        // on other lines too: line numbers are not in the digest
        assertEquals(orig, original("static final boolean DEBUG = false;\n\n int f(int x) {\n if (DEBUG) { x--; }\n return x * (2 * 3); }"));
        assertEquals(orig, original("static final boolean DEBUG = false;\n int f(int y) { if (DEBUG) { y += 7; } return y * 6; }"),
                "a parameter's name is debug information");
        assertNotEquals(orig, original("static final boolean DEBUG = false;\n int f(int x) {\n if (DEBUG) { x++; }\n return x * 6 * 1; }"),
                "javac does not fold x * 1");
        assertNotEquals(orig, original("static final boolean DEBUG = false;\n int f(int x) {\n if (DEBUG) { x++; }\n return x * 7; }"));
        assertNotEquals(orig, original("static final boolean DEBUG = true;\n int f(int x) {\n if (DEBUG) { x++; }\n return x * 6; }"));
    }

    @Test
    void nestedAndAnonymousClassesAreInTheDigest() {
        String orig = original("static class In { int g() { return 1; } }\n Runnable r() { return new Runnable() { public void run() { System.out.println(2); } }; }");
        assertNotEquals(orig, original("static class In { int g() { return 3; } }\n Runnable r() { return new Runnable() { public void run() { System.out.println(2); } }; }"));
        assertNotEquals(orig, original("static class In { int g() { return 1; } }\n Runnable r() { return new Runnable() { public void run() { System.out.println(4); } }; }"));
        assertEquals(orig, original("static class In { int g() { return 0 + 1; } }\n Runnable r() { return new Runnable() { public void run() { System.out.println(1 + 1); } }; }"));
    }

    @Test
    void handlersAndBranchesKeepTheirMeaning() {
        String parse = "int f(String s) { try { return Integer.parseInt(s); } catch (%s e) { return %d; } }";
        String orig = original(String.format(parse, "NumberFormatException", -1));
        for (String other : List.of(String.format(parse, "IllegalArgumentException", -1), String.format(parse, "NumberFormatException", -2))) {
            assertNotEquals(orig, original(other), other);
        }
        String branch = "int f(int a, int b) { if (%s) { return %d; } return %d; }";
        String cond = original(String.format(branch, "a < b", 1, 2));
        assertNotEquals(cond, original(String.format(branch, "a <= b", 1, 2)));
        assertNotEquals(cond, original(String.format(branch, "a < b", 2, 1)));
        // the same graph laid out otherwise
        assertEquals(cond, original(String.format(branch, "!(a >= b)", 1, 2)));
    }

    @Test
    @SuppressWarnings("unchecked")
    void aSchemaResolvesEachMutant() {
        String sw = "advertest.worker.hook.Mutant.active";
        String orig = original("static final boolean DEBUG = false;\n int f(int x) { if (x < 6) { return 1; } if (DEBUG) { x++; } return x * 6; }");
        Map<String, Object> d = digest("static final boolean DEBUG = false;\n int f(int x) { if ((" + sw + " == 1 ? (x <= 6) : (x < 6))) { return 1; }"
                + " if (DEBUG) { { if (" + sw + " == 2) { x--; } else { x++; } } }"
                + " return (" + sw + " == 3 ? (x * (2 * 3)) : " + sw + " == 4 ? (x * 7) : (x * 6)); }");
        assertEquals(orig, d.get("original"), "with no mutant active the schema is the original");
        Map<String, Object> ms = (Map<String, Object>) d.get("mutants");
        assertNotEquals(orig, ms.get("1"));
        assertFalse(ms.containsKey("2"), "the site under if (DEBUG) is compiled away");
        assertEquals(orig, ms.get("3"), "an arm that folds to the original's constant");
        assertNotEquals(orig, ms.get("4"));
        assertEquals(original("static final boolean DEBUG = false;\n int f(int x) { if (x < 6) { return 1; } if (DEBUG) { x++; } return x * 7; }"), ms.get("4"),
                "an arm resolved is the mutant compiled alone");
        assertEquals(List.of(), d.get("unknown"));
        assertEquals(false, d.get("opaque"));
        Map<String, Object> opaque = digest("int f(int x) { int a = " + sw + "; return a == 1 ? x : x + 1; }");
        assertEquals(true, opaque.get("opaque"), "a read of the switch that is not a test");
    }
}
