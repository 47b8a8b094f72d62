package advertest.offline;

import advertest.offline.Gen.ArrayGen;
import advertest.offline.Input.Receiver;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;

/**
 * Inputs for code that reads an integer array in blocks at an index or up to a length (a hash
 * taking (data, length, seed), a decoder taking (data, offset)): the ramp (below; also first
 * among Inputs.boundaryLists) with its integer parameters at the block boundaries. The boundary combinations rarely pair a long
 * array with a fitting length (a third parameter leaves the diagonal only short arrays with 0,
 * 1 or -1), and random ones almost never do, so every short array threw or read no block.
 */
final class Blocks {
    /** Indexes and lengths that fit the ramp's 17 elements: its start, one block, two, all. */
    private static final long[] AT = {0, 1, 8, 9, 16, 17};
    /** At most two integer parameters take the values above; the others keep their simplest. */
    private static final int VARIED = 2;

    private Blocks() {
    }

    static List<Input> inputs(Type[] ptypes, List<List<Gen>> pools, List<Receiver> receivers) {
        List<Input> out = new ArrayList<>();
        int array = -1;
        List<Integer> ints = new ArrayList<>();
        for (int i = 0; i < ptypes.length; i++) {
            Class<?> c = Types.raw(ptypes[i]);
            if (array < 0 && c.isArray() && integral(c.getComponentType())) {
                array = i;
            } else if (integral(c) && ints.size() < VARIED) {
                ints.add(i);
            }
        }
        if (array < 0 || ints.isEmpty()) {
            return out;
        }
        List<Gen> base = new ArrayList<>();
        for (List<Gen> pool : pools) {
            base.add(Combinations.nonNull(pool).get(0));
        }
        Class<?> comp = Types.raw(ptypes[array]).getComponentType();
        base.set(array, new ArrayGen(comp, ramp(comp)));
        Receiver r = receivers == null || receivers.isEmpty() ? null : receivers.get(0);
        int n = 1;
        for (int k = 0; k < ints.size(); k++) {
            n *= AT.length;
        }
        for (int k = 0; k < n; k++) {
            List<Gen> args = new ArrayList<>(base);
            for (int j = 0, rest = k; j < ints.size(); j++, rest /= AT.length) {
                args.set(ints.get(j), Exprs.intConst(Types.raw(ptypes[ints.get(j)]), AT[rest % AT.length]));
            }
            out.add(new Input(r, args));
        }
        return out;
    }

    /**
     * 1, 2, ..., 17: code that reads fixed-size blocks (a hash or a decoder taking 4, 8 or 16
     * elements at an index) throws on every short list; this one holds two blocks of eight and
     * a tail, and each element differs from its neighbours, so a read at the wrong position, a
     * wrong shift or a wrong block size changes the result.
     */
    static List<Gen> ramp(Class<?> p) {
        List<Gen> es = new ArrayList<>();
        for (int v = 1; v <= 17; v++) {
            es.add(Exprs.intConst(p, v));
        }
        return es;
    }

    private static boolean integral(Class<?> c) {
        Class<?> p = Types.unbox(c);
        return p == int.class || p == long.class || p == short.class || p == byte.class;
    }
}
