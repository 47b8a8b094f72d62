package advertest.worker;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jacoco.core.data.ExecutionData;
import org.jacoco.core.data.ExecutionDataStore;
import org.jacoco.core.internal.data.CRC64;
import org.jacoco.core.internal.flow.ClassProbesAdapter;
import org.jacoco.core.internal.flow.ClassProbesVisitor;
import org.jacoco.core.internal.flow.IFrame;
import org.jacoco.core.internal.flow.LabelInfo;
import org.jacoco.core.internal.flow.MethodProbesVisitor;
import org.jacoco.core.internal.instr.InstrSupport;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.Label;

/**
 * What one test executed, for the coverage map that outlives a run (docs/worker-protocol.md,
 * "The coverage map"): each class of the project it ran, by JaCoCo's class id, with the methods
 * it entered as indexes into that class's method table. A method table lists a class's methods
 * with code in JaCoCo's probe order, each with its first and last source line; it is computed
 * once per class id (JaCoCo gives each method a contiguous range of probe ids, in the order the
 * class file lists them) and sent with the first test of a run that executed the class.
 *
 * <p>Called from the worker's request thread only; the table cache is concurrent because the
 * worker's warm-up may compute tables too.
 */
final class Executed {
    /** A class's methods: their probe ranges (inclusive) and lines (-1 when it has none). */
    private static final class Table {
        final List<String> names = new ArrayList<>();
        final List<int[]> probes = new ArrayList<>(); // {first, last}
        final List<int[]> lines = new ArrayList<>(); // {first, last}
    }

    private final Map<Long, Table> tables = new ConcurrentHashMap<>();

    /**
     * The classes store's data hit, with the methods they entered:
     * [{class, id (hex), methods [index]}]; sentTables holds the ids whose table this run sent,
     * and tablesOut gets the others' tables {id: [[name, firstLine, lastLine], …]}. A class whose
     * bytes the loader does not have (or whose table cannot be read) has methods null: the
     * controller then knows the class ran, not where.
     */
    List<Object> of(ExecutionDataStore store, RunLoader loader, Set<Long> sentTables, Map<String, Object> tablesOut) {
        List<Object> out = new ArrayList<>();
        for (ExecutionData d : store.getContents()) {
            if (!d.hasHits()) {
                continue;
            }
            boolean[] p = d.getProbes();
            String name = d.getName().replace('/', '.');
            Map<String, Object> e = new LinkedHashMap<>();
            e.put("class", name);
            String id = Long.toHexString(d.getId());
            e.put("id", id);
            Table t = tableOf(d.getId(), name, loader);
            if (t != null) {
                List<Integer> hit = new ArrayList<>();
                for (int m = 0; m < t.probes.size(); m++) {
                    int[] r = t.probes.get(m);
                    for (int i = r[0]; i <= r[1] && i < p.length; i++) {
                        if (p[i]) {
                            hit.add(m);
                            break;
                        }
                    }
                }
                e.put("methods", hit);
                if (sentTables.add(d.getId())) {
                    List<Object> rows = new ArrayList<>();
                    for (int m = 0; m < t.names.size(); m++) {
                        rows.add(java.util.Arrays.asList(t.names.get(m), t.lines.get(m)[0], t.lines.get(m)[1]));
                    }
                    tablesOut.put(id, rows);
                }
            }
            out.add(e);
        }
        return out;
    }

    private Table tableOf(long id, String name, RunLoader loader) {
        Table t = tables.get(id);
        if (t != null) {
            return t;
        }
        byte[] bytes = loader.bytesFor(name);
        if (bytes == null || CRC64.classId(bytes) != id) {
            return null; // not the bytes JaCoCo instrumented: no table rather than a wrong one
        }
        try {
            t = read(bytes);
        } catch (RuntimeException e) {
            return null;
        }
        tables.put(id, t);
        return t;
    }

    /** The method table of a class's bytes, walked as JaCoCo's analysis walks them. */
    static Table read(byte[] bytes) {
        Table t = new Table();
        ClassReader reader = InstrSupport.classReaderFor(bytes);
        reader.accept(new ClassProbesAdapter(new ClassProbesVisitor() {
            @Override
            public MethodProbesVisitor visitMethod(int access, String name, String desc, String signature, String[] exceptions) {
                return new MethodProbesVisitor() {
                    int first = Integer.MAX_VALUE, last = -1, firstLine = Integer.MAX_VALUE, lastLine = -1;

                    private void probe(int id) {
                        if (id >= 0) {
                            first = Math.min(first, id);
                            last = Math.max(last, id);
                        }
                    }

                    private void labels(Label dflt, Label[] labels) {
                        probe(LabelInfo.getProbeId(dflt));
                        for (Label l : labels) {
                            probe(LabelInfo.getProbeId(l));
                        }
                    }

                    @Override
                    public void visitProbe(int probeId) {
                        probe(probeId);
                    }

                    @Override
                    public void visitJumpInsnWithProbe(int opcode, Label label, int probeId, IFrame frame) {
                        probe(probeId);
                        super.visitJumpInsn(opcode, label);
                    }

                    @Override
                    public void visitInsnWithProbe(int opcode, int probeId) {
                        probe(probeId);
                        super.visitInsn(opcode);
                    }

                    @Override
                    public void visitTableSwitchInsnWithProbes(int min, int max, Label dflt, Label[] labels, IFrame frame) {
                        labels(dflt, labels);
                        super.visitTableSwitchInsn(min, max, dflt, labels);
                    }

                    @Override
                    public void visitLookupSwitchInsnWithProbes(Label dflt, int[] keys, Label[] labels, IFrame frame) {
                        labels(dflt, labels);
                        super.visitLookupSwitchInsn(dflt, keys, labels);
                    }

                    @Override
                    public void visitLineNumber(int line, Label start) {
                        firstLine = Math.min(firstLine, line);
                        lastLine = Math.max(lastLine, line);
                    }

                    @Override
                    public void visitEnd() {
                        if (last < 0) {
                            return; // no code, no probes: abstract or native
                        }
                        t.names.add(name + desc);
                        t.probes.add(new int[] {first, last});
                        t.lines.add(firstLine <= lastLine ? new int[] {firstLine, lastLine} : new int[] {-1, -1});
                    }
                };
            }

            @Override
            public void visitTotalProbeCount(int count) {
            }
        }, false), 0);
        return t;
    }

    /** Ids this run has sent tables for: a fresh set per run. */
    static Set<Long> newSentSet() {
        return new HashSet<>();
    }
}
