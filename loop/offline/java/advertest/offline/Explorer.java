package advertest.offline;

import advertest.offline.Input.Call;
import advertest.offline.Input.Receiver;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The entry point: runs one method with generated inputs and writes one JSON line per input
 * (Output): the input as Java source expressions and the outcome (the return value rendered as a
 * Java expression, the thrown exception's class, the receiver's observable state afterwards). The
 * Go side runs it on the original and on a mutant and compares the lines. Everything random comes
 * from the seed, and the plan of an input never depends on what earlier calls did, so two runs
 * line up index by index. A small generated JUnit test, run by the AdverTest worker, sets the
 * public fields and calls {@link #run()}.
 *
 * The other classes of this package: Inputs (generation), Gen and Input (the plans), Combinations,
 * Types, Exprs and Names (Java source for values and types), Access (what a test can reach),
 * CallRunner (one call under a deadline), Observer (rendering what a call did), Output and
 * JsonText (the file written), Lookup (the method Go names), Results (a method called on what
 * an accessible method returns).
 */
public final class Explorer {
    /** Binary name of the class that declares the method. */
    public String className;
    /** The method's name, or "<init>" for a constructor. */
    public String methodName;
    /** The parameter types as written in the source ("int", "List<String>", "int..."). */
    public String[] paramTypes = new String[0];
    /** Literals of the method's text. */
    public long[] ints = new long[0];
    public double[] doubles = new double[0];
    public String[] strings = new String[0];
    public String chars = "";
    /*
     * The search's bounds have no defaults here: Go sends every one (its defaults are
     * loop/offline/agent.go's Options), and run() refuses a bound left unset.
     */
    public long seed;
    public int maxInputs;
    /** Wall-clock milliseconds of calls: the exploration stops at the first input past them. */
    public long budgetMillis;
    public long callMillis;
    /** Bytes one call may allocate before it is stopped (garbage included). */
    public long maxAllocBytes;
    /** The exploration stops after this many calls past a bound (callMillis, maxAllocBytes). */
    public int maxTimeouts;
    /** The package of the generated test: types there are named without an import. */
    public String testPackage = "";
    /** The JSON-lines file written. */
    public String out;
    /**
     * The binary name of the site probe compiled with the class under test ("" for none): a
     * class whose static take() returns, and forgets, the values the mutated expression had in
     * the call so far (loop/offline/infect.go writes it). Each record then carries them.
     */
    public String probe = "";
    /**
     * The minimal subclass of an abstract receiver, nested in the driver (null for none): Go
     * writes it from the source an earlier run gave back (Abstracts), and into the test class too.
     */
    public Class<?> minimal;

    /**
     * Shifted runs the exploration with another default time zone and locale (restored after):
     * the original's second run, so that an outcome that depends on them, or on the clock read
     * through them (a formatted current time), differs between the two runs and is never
     * asserted.
     */
    public boolean shifted;

    /**
     * Seeding makes this run the seeding pass (Seeds.search: the worker records the run's
     * comparisons; its output is the seeds line); seeds are the tokens an earlier seeding pass
     * saw, the same for every later run of the method (loop/offline/seeds.go), with the
     * characters and int constants it saw compared.
     */
    public boolean seeding;
    public String[] seeds = new String[0];
    public String seedChars = "";
    public long[] seedInts = new long[0];

    /**
     * ThroughResult drives the method, of a class a test cannot name, through what the
     * accessible methods of its file return as an accessible supertype that declares it
     * (Results); the entry probe counts the calls that entered it.
     */
    public boolean throughResult;

    private final ClassLoader loader;

    public Explorer(ClassLoader loader) {
        this.loader = loader;
    }

    public void run() throws Exception {
        if (maxInputs <= 0 || budgetMillis <= 0 || callMillis <= 0 || maxAllocBytes <= 0 || maxTimeouts <= 0) {
            throw new IllegalStateException("explorer: maxInputs, budgetMillis, callMillis, maxAllocBytes and maxTimeouts must be set (Go sends them)");
        }
        java.util.TimeZone zone = java.util.TimeZone.getDefault();
        Locale format = Locale.getDefault(Locale.Category.FORMAT);
        Locale display = Locale.getDefault(Locale.Category.DISPLAY);
        Locale locale = Locale.getDefault();
        if (shifted) {
            // the zone furthest from the default, and a locale with other formats
            java.util.TimeZone.setDefault(java.util.TimeZone.getTimeZone(zone.getRawOffset() >= 0 ? "Etc/GMT+12" : "Pacific/Kiritimati"));
            Locale.setDefault(locale.getLanguage().equals("de") ? Locale.FRANCE : Locale.GERMANY);
        }
        try {
            runAs();
        } finally {
            if (shifted) {
                java.util.TimeZone.setDefault(zone);
                Locale.setDefault(locale);
                Locale.setDefault(Locale.Category.FORMAT, format);
                Locale.setDefault(Locale.Category.DISPLAY, display);
            }
        }
    }

    private void runAs() throws Exception {
        Access access = new Access(testPackage);
        Inputs inputs = new Inputs(ints, doubles, strings, chars, seed, access);
        inputs.minimal = minimal;
        inputs.seeds = seeds;
        inputs.seedChars = seedChars;
        inputs.seedInts = seedInts;
        inputs.seedRandom = new java.util.Random(~seed);
        CallRunner runner = new CallRunner(loader, callMillis, new Observer(access));
        runner.maxAllocBytes = maxAllocBytes;
        try (Output output = new Output(out)) {
            explore(access, inputs, runner, output);
        } finally {
            runner.shutdown();
        }
    }

    /**
     * Whether another constructor of c, or another method of c or its superclasses and
     * interfaces, has target's name and number of parameters: a test's null argument to it is
     * ambiguous without a cast.
     */
    static boolean overloaded(Class<?> c, Executable target) {
        int n = target.getParameterCount();
        if (target instanceof Constructor) {
            for (Constructor<?> k : c.getDeclaredConstructors()) {
                if (!k.equals(target) && !k.isSynthetic() && k.getParameterCount() == n) {
                    return true;
                }
            }
            return false;
        }
        Set<Class<?>> seen = new HashSet<>();
        ArrayDeque<Class<?>> todo = new ArrayDeque<>();
        todo.add(c);
        while (!todo.isEmpty()) {
            Class<?> k = todo.poll();
            if (!seen.add(k)) {
                continue;
            }
            for (Method m : k.getDeclaredMethods()) {
                if (m.getName().equals(target.getName()) && m.getParameterCount() == n && !m.isSynthetic() && !m.isBridge()
                    && !Arrays.equals(m.getParameterTypes(), target.getParameterTypes())) {
                    return true;
                }
            }
            if (k.getSuperclass() != null) {
                todo.add(k.getSuperclass());
            }
            todo.addAll(Arrays.asList(k.getInterfaces()));
        }
        return false;
    }

    private void explore(Access access, Inputs gen, CallRunner runner, Output output) throws Exception {
        Class<?> c;
        Executable target;
        List<List<Gen>> pools = new ArrayList<>();
        List<Receiver> receivers = null;
        Results through = null; // with throughResult: the results the target is called on
        Type[] ptypes;
        try {
            try {
                c = Class.forName(className, true, loader);
            } catch (ClassNotFoundException e) {
                throw new Unsupported("class " + className + " not found");
            } catch (ExceptionInInitializerError e) {
                throw new Unsupported("class " + className + " fails to initialise: " + e.getCause());
            }
            if ((c.isAnonymousClass() || c.isLocalClass()) && !throughResult) {
                throw new Unsupported("a method of an anonymous or local class cannot be called from a test");
            }
            if (throughResult) {
                Executable declared = Lookup.declared(c, methodName, paramTypes);
                if (!(declared instanceof Method)) {
                    throw new Unsupported("method " + methodName + Arrays.toString(paramTypes) + " not found in " + c.getName());
                }
                through = Results.find(c, (Method) declared, access);
                gen.impls = new Impls(loader, access, c); // the project's classes: the target's, not the supertype's
                c = through.type;
                target = through.method;
            } else {
                target = findTarget(c, access);
                gen.impls = new Impls(loader, access, c);
            }
            ptypes = target.getGenericParameterTypes();
            for (Type t : ptypes) {
                pools.add(gen.pool(t, 2));
            }
            boolean instance = target instanceof Method && !Modifier.isStatic(target.getModifiers());
            if (instance) {
                receivers = through != null ? through.receivers(gen, target) : gen.receivers(c, target);
                // the implementations an abstract receiver is made of bind its type parameters
                // (PatriciaTrie: AbstractBitwiseTrie's K is String): its arguments take that type
                Type[] bound = through != null ? through.bind(ptypes) : Abstracts.bound(c, receivers, ptypes);
                for (int i = 0; i < ptypes.length; i++) {
                    if (bound[i] != ptypes[i]) {
                        pools.set(i, gen.pool(bound[i], 2));
                    }
                }
                ptypes = bound;
            } else if (target instanceof Constructor && (Modifier.isAbstract(c.getModifiers()) || !access.classAccessible(c))) {
                throw new Unsupported("the constructor's class cannot be instantiated from a test");
            }
        } catch (Abstracts.NeedsMinimal u) {
            output.unsupported(u.getMessage(), u.source);
            return;
        } catch (Unsupported u) {
            output.unsupported(u.getMessage(), null);
            return;
        }
        Names header = access.names();
        List<String> declTypes = new ArrayList<>();
        for (Type t : ptypes) {
            declTypes.add(header.decl(t));
        }
        String ret = target instanceof Method ? header.decl(((Method) target).getGenericReturnType()) : header.decl(c);
        if (target instanceof Method && ((Method) target).getReturnType() == void.class) {
            ret = "void";
        }
        String recvType = receivers == null ? "" : through != null ? header.decl(through.declared) : header.erased(c);
        String classRef = header.erased(c);
        output.header(declTypes, ret, recvType, classRef, new ArrayList<>(header.imports), overloaded(c, target));

        Method take = probeTake();
        Linked linked = gen.linkedOf(ptypes);
        runner.observer.nodeType = linked == null ? null : linked.node;
        List<Input> inputs = plan(gen, c, target, pools, receivers, ptypes);
        if (seeding) {
            Seeds.search(loader, gen, runner, target, c, inputs, ptypes, budgetMillis, maxTimeouts, access, output);
            return;
        }
        long deadline = System.nanoTime() + budgetMillis * 1_000_000L;
        Set<String> seen = new HashSet<>();
        List<Set<String>> tried = new ArrayList<>();
        for (int i = 0; i < ptypes.length; i++) {
            tried.add(new java.util.TreeSet<>());
        }
        int index = 0;
        int timeouts = 0;
        for (Input in : inputs) {
            if (System.nanoTime() > deadline) {
                break;
            }
            Names names = access.names();
            List<String> argExprs = new ArrayList<>();
            List<String> argTokens = new ArrayList<>();
            for (Gen g : in.args) {
                argExprs.add(g.expr(names));
                argTokens.add(g.token());
            }
            String recvExpr = in.receiver == null ? "" : in.receiver.make.expr(names);
            List<String> setup = new ArrayList<>();
            StringBuilder recvToken = new StringBuilder();
            if (in.receiver != null) {
                for (Call k : in.receiver.setup) {
                    setup.add(k.expr(names));
                    recvToken.append(k.token());
                }
            }
            List<String> graph = in.graph == null ? Collections.<String>emptyList() : in.graph.lines(names);
            String key = graph + recvExpr + setup + argExprs;
            if (!seen.add(key)) {
                continue;
            }
            if (take != null) {
                take.invoke(null); // what an abandoned call left behind
            }
            for (int i = 0; i < in.args.size() && i < tried.size(); i++) {
                in.args.get(i).kinds("", tried.get(i));
            }
            String outcome = runner.execute(target, c, in, names);
            String site = take == null ? null : (String) take.invoke(null);
            output.record(index++, argExprs, argTokens, in.receiver == null ? null : recvExpr, setup, recvToken.toString(),
                graph, in.graph == null ? "" : in.graph.token(), outcome, new ArrayList<>(names.imports), site);
            boolean bounded = Output.isKind(outcome, Output.OUT_TIMEOUT) || Output.isKind(outcome, Output.OUT_BOUND);
            if (bounded && ++timeouts >= maxTimeouts) {
                break;
            }
        }
        output.kinds(kinds(pools), tried);
        output.end(index);
    }

    /** The kinds of value each parameter's pool holds (Gen.kinds): what the search can build for it. */
    private static List<Set<String>> kinds(List<List<Gen>> pools) {
        List<Set<String>> out = new ArrayList<>();
        for (List<Gen> pool : pools) {
            Set<String> ks = new java.util.TreeSet<>();
            for (Gen g : pool) {
                g.kinds("", ks);
            }
            out.add(ks);
        }
        return out;
    }

    /**
     * The inputs in the order they run: graphs of linked nodes (Inputs.graphInputs), the boundary
     * combinations (simplest first, at most two thirds of maxInputs), then seeded random ones.
     */
    private List<Input> plan(Inputs gen, Class<?> c, Executable target, List<List<Gen>> pools, List<Receiver> receivers,
            Type[] ptypes) throws Unsupported {
        // linked inputs first: small graphs of the parameters' node class (few, and the
        // boundary combinations below never link two nodes)
        List<Input> inputs = new ArrayList<>(gen.graphInputs(ptypes, pools, receivers));
        List<List<Gen>> dims = new ArrayList<>(pools);
        List<Gen> recvIndex = new ArrayList<>();
        if (receivers != null) {
            for (int i = 0; i < receivers.size(); i++) {
                recvIndex.add(Gen.NULL);
            }
            dims.add(0, recvIndex);
        }
        int boundaryCap = Math.max(1, maxInputs * 2 / 3);
        for (int[] idx : Combinations.diagonal(Combinations.sizes(dims), boundaryCap)) {
            Receiver r = null;
            int off = 0;
            if (receivers != null) {
                r = receivers.get(idx[0]);
                off = 1;
            }
            List<Gen> args = new ArrayList<>();
            for (int i = 0; i < pools.size(); i++) {
                args.add(pools.get(i).get(idx[i + off]));
            }
            inputs.add(new Input(r, args));
        }
        inputs.addAll(Blocks.inputs(ptypes, pools, receivers));
        if (dims.isEmpty()) {
            inputs.add(new Input(null, Collections.<Gen>emptyList()));
        }
        boolean varies = !dims.isEmpty();
        while (varies && inputs.size() < maxInputs) {
            Receiver r = receivers != null ? gen.someReceiver(c, receivers, target) : null;
            List<Gen> args = new ArrayList<>();
            for (Type t : ptypes) {
                args.add(gen.randomValue(t, 2));
            }
            inputs.add(new Input(r, args));
        }
        return inputs;
    }

    /** The probe's take() method, or null when no probe was compiled with the class. */
    private Method probeTake() throws Exception {
        if (probe == null || probe.isEmpty()) {
            return null;
        }
        Method m = Class.forName(probe, true, loader).getDeclaredMethod("take");
        m.setAccessible(true);
        return m;
    }

    /** The method or constructor named by methodName and paramTypes, if a test can call it. */
    private Executable findTarget(Class<?> c, Access access) throws Unsupported {
        Executable best = Lookup.declared(c, methodName, paramTypes);
        if (best == null) {
            throw new Unsupported("method " + methodName + Arrays.toString(paramTypes) + " not found in " + c.getName());
        }
        if (Modifier.isPrivate(best.getModifiers())) {
            throw new Unsupported("the method is private: a test cannot call it");
        }
        if (!access.accessible(best.getModifiers(), c)) {
            throw new Unsupported("the method is not accessible from a test in " + testPackage);
        }
        if (Modifier.isAbstract(best.getModifiers())) {
            throw new Unsupported("the method is abstract");
        }
        best.setAccessible(true);
        return best;
    }
}
