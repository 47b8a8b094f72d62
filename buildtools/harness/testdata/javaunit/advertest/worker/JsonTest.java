package advertest.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void parsesEveryKindOfValue() {
        Object v = Json.parse(" {\"s\":\"a\\\"b\\\\c\\n\\u00e9\",\"n\":-12,\"d\":1.5e3,\"t\":true,\"f\":false,\"z\":null,\"a\":[1,[2],{}]} ");
        Map<String, Object> m = Protocol.asMap(v);
        assertEquals("a\"b\\c\n\u00e9", m.get("s"));
        assertEquals(-12L, m.get("n"));
        assertEquals(1500.0, m.get("d"));
        assertEquals(Boolean.TRUE, m.get("t"));
        assertEquals(Boolean.FALSE, m.get("f"));
        assertTrue(m.containsKey("z") && m.get("z") == null);
        assertEquals(Arrays.asList(1L, Arrays.asList(2L), new LinkedHashMap<>()), m.get("a"));
        assertEquals(Arrays.asList("s", "n", "d", "t", "f", "z", "a"), List.copyOf(m.keySet()), "keys keep their order");
    }

    @Test
    void integersTooBigForALongBecomeDoubles() {
        assertEquals(Long.MAX_VALUE, Json.parse("9223372036854775807"));
        assertEquals(1e20, Json.parse("100000000000000000000"));
    }

    @Test
    void writesWhatItParses() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("text", "tab\there \"quoted\" back\\slash\u0001 \ud83d\ude00 end");
        m.put("n", 42L);
        m.put("i", 7);
        m.put("x", 0.25);
        m.put("list", Arrays.asList("a", null, true));
        m.put("nested", Map.of("k", List.of(1L, 2L)));
        String s = Json.write(m);
        assertTrue(s.contains("\\u0001"), s);
        assertTrue(s.contains("\ud83d\ude00"), "a surrogate pair is written as it is: " + s);
        Map<String, Object> back = Protocol.asMap(Json.parse(s));
        assertEquals(m.get("text"), back.get("text"));
        assertEquals(42L, back.get("n"));
        assertEquals(7L, back.get("i"));
        assertEquals(0.25, back.get("x"));
        assertEquals(m.get("list"), back.get("list"));
        assertEquals(List.of(1L, 2L), Protocol.asMap(back.get("nested")).get("k"));
    }

    @Test
    void writesArraysLoneSurrogatesAndNonFiniteNumbers() {
        assertEquals("[1,2,3]", Json.write(new int[] {1, 2, 3}));
        assertEquals("[4,5]", Json.write(new long[] {4, 5}));
        assertEquals("\"\\ud800x\"", Json.write("\ud800x"));
        assertEquals("0", Json.write(Double.NaN));
        assertEquals("[]", Json.write(List.of()));
        assertEquals("{}", Json.write(Map.of()));
    }

    @Test
    void malformedInputSaysWhere() {
        String[] bad = {"", "{", "{\"a\"", "{\"a\":}", "[1,]", "[1 2]", "\"open", "\"bad \\q\"", "\"\\u12\"", "tru", "-", "1.2.3",
            "{} x", "{a:1}", "\"a\nb\"", "@"};
        for (String b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse(b), b);
            assertTrue(e.getMessage().contains("at offset"), e.getMessage());
        }
    }

    @Test
    void deepNestingIsRefusedNotAStackOverflow() {
        String deep = "[".repeat(100_000) + "]".repeat(100_000);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Json.parse(deep));
        assertTrue(e.getMessage().contains("nesting deeper than"), e.getMessage());
        String fine = "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH);
        Json.parse(fine);
    }
}
