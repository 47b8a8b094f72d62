package advertest.offline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CombinationsTest {
    static List<String> tuples(int[] sizes, int limit) {
        List<String> out = new ArrayList<>();
        for (int[] t : Combinations.diagonal(sizes, limit)) {
            out.add(Arrays.toString(t));
        }
        return out;
    }

    @Test
    void diagonalGoesByIncreasingIndexSum() {
        assertEquals(List.of("[0, 0]", "[0, 1]", "[1, 0]", "[0, 2]", "[1, 1]", "[2, 0]"), tuples(new int[] {3, 3}, 6));
        assertEquals(List.of("[0, 0]", "[0, 1]", "[1, 0]", "[1, 1]"), tuples(new int[] {2, 2}, 100), "every tuple once");
        assertEquals(List.of("[0]", "[1]"), tuples(new int[] {2}, 100));
        assertTrue(tuples(new int[] {0, 3}, 10).isEmpty(), "an empty pool gives nothing");
        assertEquals(List.of("[]"), tuples(new int[0], 10), "no parameters: one empty input");
    }

    @Test
    void smallListsAndNonNull() {
        Gen a = new Gen.Const(1, "1", "One");
        Gen b = new Gen.Const(2, "2", "Two");
        Gen c = new Gen.Const(3, "3", "Three");
        assertEquals(List.of(a, b), Combinations.nonNull(List.of(a, Gen.NULL, b)));
        assertEquals(List.of(Gen.NULL), Combinations.nonNull(List.of(Gen.NULL)));
        List<List<Gen>> small = Combinations.small(List.of(a, b, c));
        assertEquals(List.of(List.of(a), List.of(b), List.of(c), List.of(b, c), List.of(c, b), List.of(b, b), List.of(c, a, b)), small);
    }
}
