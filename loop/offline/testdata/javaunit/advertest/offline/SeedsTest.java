package advertest.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SeedsTest {
    static final String CONSTANT_HEAD = "hd:";

    public static String constants(String s) {
        return s.startsWith(CONSTANT_HEAD) ? "head" : s.endsWith("-tail") ? "tail" : "none";
    }

    @Test
    void combosJoinTokensWithDigitsAndSeparators() {
        List<String> got = Seeds.combos(Arrays.asList("zq:", "~wv"), "/");
        assertEquals(Arrays.asList("zq:", "~wv"), got.subList(0, 2), "the tokens first");
        for (String want : new String[] {"zq:42", "42zq:", "zq:a", "ZQ:", "zq:~wv", "zq:42~wv", "zq:/~wv", "~wvzq:", "zq:42~wv7zq:"}) {
            assertTrue(got.contains(want), want + " not in " + got);
        }
        assertEquals(got, Seeds.combos(Arrays.asList("zq:", "~wv"), "/"), "the same tokens, the same strings");
        assertEquals(new LinkedHashSet<>(got).size(), got.size(), "none twice");
        assertTrue(Seeds.combos(Collections.<String>emptyList(), "/").isEmpty());
        assertTrue(Seeds.combos(Arrays.asList("v1"), "").contains("v2"), "digits changed");
    }

    @Test
    void combosAreBounded() {
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            many.add("t" + i);
        }
        assertEquals(Seeds.MAX_COMBOS, Seeds.combos(many, ",;").size());
    }

    @Test
    void theInputIsNoToken() {
        Seeds.Seen seen = new Seeds.Seen();
        List<String[]> notes = Arrays.asList(new String[] {"s", "abzq:", "zq:"}, new String[] {"s", "ab", "~wv"}, new String[] {"s", "", null},
            new String[] {"i", "58"}, new String[] {"c", "isDigit"}, new String[] {"k", "xy"});
        assertTrue(seen.note(notes, Arrays.asList("abzq:")));
        assertEquals(Arrays.asList("~wv"), new ArrayList<>(seen.tokens), "zq: is a piece of the input, ab too");
        assertEquals("[:, 7, x, y]", seen.chars.toString());
        assertEquals("[58]", seen.ints.toString());
        assertFalse(seen.note(notes, Arrays.asList("abzq:")), "nothing new the second time");
    }

    @Test
    void constantPoolStrings() throws Exception {
        Set<String> strings = new LinkedHashSet<>();
        List<String> classes = new ArrayList<>();
        try (InputStream raw = SeedsTest.class.getResourceAsStream("SeedsTest.class"); DataInputStream in = new DataInputStream(raw)) {
            Seeds.ConstantPool.read(in, strings, classes, Seeds.MAX_LENGTH);
        }
        assertTrue(strings.contains("hd:") && strings.contains("-tail"), strings.toString());
        assertTrue(classes.contains("advertest/offline/Seeds"), classes.toString());
        assertFalse(classes.contains("java/lang/String"), "the JDK's classes are not the project's");
    }
}
