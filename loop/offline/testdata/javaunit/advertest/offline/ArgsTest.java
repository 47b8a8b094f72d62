package advertest.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Writer;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Calendar;
import java.util.Date;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/** The real argument types: JDK values, lambdas, the project's implementations of abstract types. */
class ArgsTest {
    /** An interface with two methods (not a lambda's): only implementations make it. */
    public interface Figure {
        int area();

        String label();
    }

    /** The parameter types, read from a method as the explorer reads the method under test. */
    public static void params(CharSequence cs, CharSequence[][] table, Locale locale, IntUnaryOperator f, UnaryOperator<String> g,
            Class<?> any, Class<? extends Number> number, Figure figure, Writer out, Date date, Calendar calendar, String... parts) {
    }

    private static Type param(int i) {
        for (Method m : ArgsTest.class.getDeclaredMethods()) {
            if (m.getName().equals("params")) {
                return m.getGenericParameterTypes()[i];
            }
        }
        throw new IllegalStateException("no params method");
    }

    private static List<String> exprs(Type t) throws Unsupported {
        return InputsTest.exprs(InputsTest.inputs().pool(t, 2));
    }

    @Test
    void aCharSequenceIsAStringAndAStringBuilderEarly() throws Throwable {
        List<Gen> pool = InputsTest.inputs().pool(param(0), 2);
        Set<String> early = new HashSet<>();
        for (Gen g : pool.subList(0, 4)) {
            g.kinds("", early);
        }
        assertEquals(Set.of("String", "StringBuilder"), early);
        List<String> exprs = InputsTest.exprs(pool);
        assertTrue(exprs.contains("new StringBuilder(\"a\")"), exprs.toString());
        Gen sb = pool.get(exprs.indexOf("new StringBuilder(\"a\")"));
        assertTrue(sb.make() != sb.make(), "a builder is made afresh for each call");
    }

    @Test
    void nestedArraysOfCharSequencesHoldBothKinds() throws Unsupported {
        Set<String> kinds = new HashSet<>();
        for (Gen g : InputsTest.inputs().pool(param(1), 2)) {
            g.kinds("", kinds);
        }
        assertTrue(kinds.contains("[][]String") && kinds.contains("[][]StringBuilder"), kinds.toString());
        assertTrue(exprs(param(1)).contains("new CharSequence[][]{new CharSequence[]{\"a\"}}"), exprs(param(1)).toString());
    }

    @Test
    void localesIncludeTheRootAndAVariant() throws Unsupported {
        List<String> exprs = exprs(param(2));
        assertTrue(exprs.containsAll(List.of("Locale.ROOT", "Locale.US", "Locale.FRENCH", "new Locale(\"es\", \"ES\", \"Traditional_WIN\")")),
            exprs.toString());
    }

    @Test
    void lambdasAreIdentityConstantAndThrowing() throws Throwable {
        List<Gen> pool = InputsTest.inputs().pool(param(3), 2);
        List<String> exprs = InputsTest.exprs(pool);
        assertEquals("p0 -> p0", exprs.get(0));
        assertEquals("p0 -> 0", exprs.get(1));
        IntUnaryOperator id = (IntUnaryOperator) pool.get(0).make();
        assertEquals(7, id.applyAsInt(7));
        assertEquals(0, ((IntUnaryOperator) pool.get(1).make()).applyAsInt(7));
        int thrower = exprs.indexOf("p0 -> { throw new IllegalStateException(\"thrown by the lambda\"); }");
        IntUnaryOperator t = (IntUnaryOperator) pool.get(thrower).make();
        assertThrows(IllegalStateException.class, () -> t.applyAsInt(1));
        assertEquals(49, id.andThen(x -> x * 7).applyAsInt(7), "a default method runs as the lambda's would");
        assertTrue(Observer.identityLike(String.valueOf(id)), "its text is a lambda's, never asserted");
        // UnaryOperator<String>: apply takes and returns a String (Function's variables bound)
        List<String> g = exprs(param(4));
        assertTrue(g.contains("p0 -> p0") && g.contains("p0 -> \"a\""), g.toString());
    }

    @Test
    void classesWithinTheirBound() throws Unsupported {
        List<String> any = exprs(param(5));
        assertTrue(any.containsAll(List.of("String.class", "int.class", "int[].class", "Runnable.class")), any.toString());
        List<String> numbers = exprs(param(6));
        assertTrue(numbers.contains("Integer.class") && !numbers.contains("String.class"), numbers.toString());
    }

    @Test
    void anInterfaceIsMadeThroughTheProjectsImplementations() throws Unsupported {
        List<String> exprs = exprs(param(7));
        assertTrue(exprs.contains("new ArgsSquare(0)"), "found in the class folder: " + exprs);
        assertTrue(exprs.contains("new ArgsFrame(new ArgsSquare(0))"), "made recursively: " + exprs);
    }

    @Test
    void pastTheDepthAKnownImplementationIsNullAndAnUnknownOneUnsupported() throws Unsupported {
        assertEquals(List.of("null"), InputsTest.exprs(InputsTest.inputs().pool(param(7), 0)));
        assertThrows(Unsupported.class, () -> InputsTest.inputs().pool(InputsTest.Shape.class, 0), "as before: a constructor taking it is skipped");
    }

    @Test
    void writersDatesAndCalendarsNeverReadTheClock() throws Throwable {
        assertEquals("new StringWriter()", exprs(param(8)).get(0));
        List<Gen> dates = InputsTest.inputs().pool(param(9), 2);
        List<Gen> calendars = InputsTest.inputs().pool(param(10), 2);
        List<Gen> all = new ArrayList<>(dates);
        all.addAll(calendars);
        for (Gen g : all) {
            if (g != Gen.NULL) {
                assertFalse(g.expr(new Names("")).contains("new Date()"));
                Thread.sleep(2);
                assertEquals(g.make(), g.make(), g.expr(new Names("")));
            }
        }
        assertTrue(InputsTest.exprs(calendars).get(0).startsWith("new Calendar.Builder().setTimeZone(TimeZone.getTimeZone(\"UTC\"))"));
    }

    @Test
    void varargsAreArraysOfTheirType() throws Unsupported {
        assertTrue(exprs(param(11)).contains("new String[]{\"a\"}"), exprs(param(11)).toString());
    }

    @Test
    void observersThatThrowCheckedExceptionsAreLeftOut() {
        List<String> names = new ArrayList<>();
        for (Method m : new Observer(new Access("advertest.offline")).observers(java.io.BufferedInputStream.class)) {
            names.add(m.getName());
        }
        assertTrue(names.contains("markSupported") && !names.contains("read") && !names.contains("available"), names.toString());
    }

    @Test
    void jdkValuesRenderAsTheirExpressions() {
        Names n = new Names("advertest.offline");
        assertEquals("Locale.FRENCH", Jdk.expr(Locale.FRENCH, n));
        assertEquals("TimeZone.getTimeZone(\"UTC\")", Jdk.expr(java.util.TimeZone.getTimeZone("UTC"), n));
        assertEquals("LocalDateTime.parse(\"2024-02-29T12:30:15\")", Jdk.expr(java.time.LocalDateTime.of(2024, 2, 29, 12, 30, 15), n));
        assertEquals("new Date(0L)", Jdk.expr(new Date(0L), n));
        assertTrue(n.imports.contains("java.time.LocalDateTime") && n.imports.contains("java.util.Locale"), n.imports.toString());
    }
}

/** An implementation of ArgsTest.Figure in its own class file: found by scanning the class folder. */
final class ArgsSquare implements ArgsTest.Figure {
    private final int side;

    ArgsSquare(int side) {
        this.side = side;
    }

    public int area() {
        return side * side;
    }

    public String label() {
        return "square";
    }
}

/** An implementation that holds another: made from the other's values. */
final class ArgsFrame implements ArgsTest.Figure {
    private final ArgsTest.Figure inner;

    ArgsFrame(ArgsTest.Figure inner) {
        this.inner = inner;
    }

    public int area() {
        return inner.area() + 1;
    }

    public String label() {
        return "frame";
    }
}
