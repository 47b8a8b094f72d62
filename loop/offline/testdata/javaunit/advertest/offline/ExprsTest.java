package advertest.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ExprsTest {
    public static class Outer {
        public static class Inner {
        }
    }

    @Test
    void literalsReadAsJava() {
        assertEquals("\"a\\\"b\\\\c\\n\\u00e9\"", Exprs.stringExpr("a\"b\\c\né"));
        assertEquals("'\\''", Exprs.charExpr('\''));
        assertEquals("'\\u0000'", Exprs.charExpr('\0'));
        assertEquals("Double.NaN", Exprs.doubleExpr(Double.NaN, false));
        assertEquals("Float.NEGATIVE_INFINITY", Exprs.doubleExpr(Double.NEGATIVE_INFINITY, true));
        assertEquals("1.5f", Exprs.doubleExpr(1.5, true));
        assertEquals("-Double.MAX_VALUE", Exprs.doubleExpr(-Double.MAX_VALUE, false));
        assertEquals("Long.MIN_VALUE", Exprs.intConst(long.class, Long.MIN_VALUE).expr);
        assertEquals("7L", Exprs.intConst(Long.class, 7).expr);
        assertEquals("(short) (-3)", Exprs.intConst(short.class, -3).expr);
        assertEquals("(byte) 5", Exprs.intConst(byte.class, 5).expr);
        assertEquals(Short.valueOf((short) -3), Exprs.intConst(short.class, -3).make());
    }

    @Test
    void tokensNameTheTest() {
        assertEquals("Minus1Point5", Exprs.camelNumber("-1.5"));
        assertEquals("SkuOne", Exprs.stringToken("sku one"));
        assertEquals("Empty", Exprs.stringToken(""));
        assertEquals("Blank", Exprs.stringToken("  "));
        assertEquals("Null", Exprs.stringToken(null));
        assertEquals("Abcdefghijkl", Exprs.stringToken("abcdefghijklmnop"), "at most 12 characters");
    }

    @Test
    void namesAndImports() throws Exception {
        Names n = new Names("advertest.offline");
        assertEquals("ExprsTest.Outer.Inner", n.erased(Outer.Inner.class));
        assertEquals("int[][]", n.erased(int[][].class));
        assertEquals("String", n.erased(String.class));
        assertEquals("TreeSet", n.erased(TreeSet.class));
        assertEquals("Map<String, List<Integer>>", n.decl(ExprsTest.class.getDeclaredField("sample").getGenericType()));
        assertEquals(new TreeSet<>(List.of("java.util.List", "java.util.Map", "java.util.TreeSet")), n.imports,
            "java.lang and the test's own package need no import");
    }

    Map<String, List<Integer>> sample;

    @Test
    void sourceTypeNames() {
        assertEquals("List", Types.simpleName("final List<String>"));
        assertEquals("int[]", Types.simpleName("int..."));
        assertEquals("Entry[]", Types.simpleName("@NonNull Map.Entry<K, V>[]"));
        assertEquals("String", Types.simpleName("java.lang.String"));
    }
}
