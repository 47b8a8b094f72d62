package advertest.worker;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.analysis.ILine;
import org.jacoco.core.data.ExecutionData;
import org.jacoco.core.data.ExecutionDataReader;
import org.jacoco.core.data.ExecutionDataStore;
import org.jacoco.core.data.SessionInfoStore;

/**
 * Per-test coverage: the JaCoCo agent (attached with output=none) is asked for its execution data
 * after each test (and reset before it), which org.jacoco.core analyses against exactly the bytes
 * the run loader gave to defineClass.
 */
final class Coverage {
    private final Object agent;
    private final Method getExecutionData;
    private final String unavailable;

    Coverage() {
        Object a = null;
        Method m = null;
        String why = null;
        try {
            ClassLoader sys = ClassLoader.getSystemClassLoader();
            Class<?> rt = Class.forName("org.jacoco.agent.rt.RT", true, sys);
            a = rt.getMethod("getAgent").invoke(null);
            m = Class.forName("org.jacoco.agent.rt.IAgent", true, sys).getMethod("getExecutionData", boolean.class);
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            Throwable c = e.getCause() != null ? e.getCause() : e;
            why = "JaCoCo agent not available in the worker: " + c;
        }
        agent = a;
        getExecutionData = m;
        unavailable = why;
    }

    /** The execution data of the last test collect took; see {@link #last()}. */
    private ExecutionDataStore last;

    /** The execution data collect last took (one test's), or null before any. */
    ExecutionDataStore last() {
        return last;
    }

    String unavailable() {
        return unavailable;
    }

    private byte[] take() {
        if (agent == null) {
            return new byte[0];
        }
        try {
            return (byte[]) getExecutionData.invoke(agent, true);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("JaCoCo getExecutionData failed", e);
        }
    }

    void reset() {
        take();
    }

    /**
     * Takes (and resets) the execution data and analyses the given classes: {class: {sourceFile,
     * lines}}. The data are also merged into total (probes OR-ed), so that the run's union of
     * coverage is exact, which per-line counts of single tests cannot give.
     */
    Map<String, Object> collect(Map<String, byte[]> classes, ExecutionDataStore total) throws IOException {
        byte[] data = take();
        ExecutionDataStore store = new ExecutionDataStore();
        SessionInfoStore sessions = new SessionInfoStore();
        ExecutionDataReader reader = new ExecutionDataReader(new ByteArrayInputStream(data));
        reader.setExecutionDataVisitor(store);
        reader.setSessionInfoVisitor(sessions);
        reader.read();
        last = store;
        if (total != null) {
            for (ExecutionData d : store.getContents()) {
                total.put(new ExecutionData(d.getId(), d.getName(), d.getProbes().clone()));
            }
        }
        return analyze(store, classes);
    }

    /** Analyses the given classes against store: {class: {sourceFile, lines}}. */
    Map<String, Object> analyze(ExecutionDataStore store, Map<String, byte[]> classes) throws IOException {
        return analyze(store, classes, false);
    }

    /**
     * analyze, where store's data must belong to exactly these bytes: a class whose data were
     * recorded on other bytes (JaCoCo's "no match", which it would report as not covered)
     * throws IllegalArgumentException.
     */
    Map<String, Object> analyzeExact(ExecutionDataStore store, Map<String, byte[]> classes) throws IOException {
        return analyze(store, classes, true);
    }

    private Map<String, Object> analyze(ExecutionDataStore store, Map<String, byte[]> classes, boolean exact) throws IOException {
        CoverageBuilder builder = new CoverageBuilder();
        Analyzer analyzer = new Analyzer(store, builder);
        for (Map.Entry<String, byte[]> e : classes.entrySet()) {
            analyzer.analyzeClass(e.getValue(), e.getKey());
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (IClassCoverage cc : builder.getClasses()) {
            if (exact && cc.isNoMatch()) {
                throw new IllegalArgumentException("the probes of " + cc.getName().replace('/', '.') + " were recorded on other bytes than the worker has");
            }
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("sourceFile", cc.getSourceFileName() == null ? "" : cc.getSourceFileName());
            List<Object> lines = new ArrayList<>();
            for (int n = cc.getFirstLine(); n > 0 && n <= cc.getLastLine(); n++) {
                ILine l = cc.getLine(n);
                if (l.getStatus() == ICounter.EMPTY) {
                    continue;
                }
                ICounter in = l.getInstructionCounter();
                ICounter br = l.getBranchCounter();
                lines.add(new int[] {n, in.getCoveredCount(), in.getMissedCount(), br.getCoveredCount(), br.getMissedCount()});
            }
            c.put("lines", lines);
            out.put(cc.getName().replace('/', '.'), c);
        }
        return out;
    }

    /**
     * The probes in store of the given classes (binary names), for the controller to merge
     * with other workers' ({@link #imported}): [{class, id (hex), probes ("0"/"1" each)}].
     */
    static List<Object> export(ExecutionDataStore store, java.util.Collection<String> classes) {
        java.util.Set<String> wanted = new java.util.HashSet<>();
        for (String c : classes) {
            wanted.add(c.replace('.', '/'));
        }
        List<Object> out = new ArrayList<>();
        for (ExecutionData d : store.getContents()) {
            if (!wanted.contains(d.getName())) {
                continue;
            }
            StringBuilder bits = new StringBuilder(d.getProbes().length);
            for (boolean p : d.getProbes()) {
                bits.append(p ? '1' : '0');
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("class", d.getName().replace('/', '.'));
            m.put("id", Long.toHexString(d.getId()));
            m.put("probes", bits.toString());
            out.add(m);
        }
        return out;
    }

    /** The store of exported probes (export's form); a malformed entry throws IllegalArgumentException. */
    static ExecutionDataStore imported(List<Map<String, Object>> entries) {
        ExecutionDataStore store = new ExecutionDataStore();
        for (Map<String, Object> m : entries) {
            String name = String.valueOf(m.get("class")).replace('.', '/');
            String bits = String.valueOf(m.get("probes"));
            boolean[] probes = new boolean[bits.length()];
            for (int i = 0; i < probes.length; i++) {
                char c = bits.charAt(i);
                if (c != '0' && c != '1') {
                    throw new IllegalArgumentException("the probes of " + name + " are not 0s and 1s");
                }
                probes[i] = c == '1';
            }
            long id;
            try {
                id = Long.parseUnsignedLong(String.valueOf(m.get("id")), 16);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("the probes of " + name + " have no class id");
            }
            store.put(new ExecutionData(id, name, probes));
        }
        return store;
    }
}
