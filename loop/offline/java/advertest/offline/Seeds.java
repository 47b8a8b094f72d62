package advertest.offline;

import advertest.offline.Gen.Const;
import advertest.offline.Input.Receiver;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Dynamic seeding: the tokens a method compares its input with become inputs. Two halves.
 *
 * <p>The seeding pass (Explorer.seeding, run by Go once per original with the worker's
 * recordCompares on): {@link #search} runs the ordinary plan for a part of the budget, then rounds
 * of inputs made of the tokens seen so far ({@link #combos}), the first round also of the string
 * constants of the class under test and the project classes it names (their constant pools: the
 * static literals of the class and its callees). After each call it drains what the run's classes
 * compared (advertest.worker.hook.Compares, read through reflection) and keeps the operands that
 * do not come from the input (a substring of an argument is the input itself). Its one line
 * (Output.seeds) lists the tokens, characters and int constants seen, in the order first seen.
 *
 * <p>Every other exploration (the original twice, each mutant) gets Go's fixed list of those
 * tokens (Explorer.seeds) and never records: the inputs stay the same from run to run, which the
 * comparison of the original's and a mutant's outcomes input by input needs. Inputs then adds
 * {@link #combos} of them to the String pool and to the random strings.
 *
 * <p>No dictionary of formats: every token comes from the code under test.
 */
final class Seeds {
    private Seeds() {
    }

    /** Bounds: tokens kept, tokens combined pairwise, strings made, a token's length. */
    static final int MAX_TOKENS = 48;
    static final int PAIRED = 6;
    static final int MAX_COMBOS = 160;
    static final int MAX_LENGTH = 32;
    /** The fillers put between and around tokens: digits and a plain letter. */
    private static final String[] FILLERS = {"42", "a"};

    /**
     * Strings made of tokens, simplest first: each token; a token after and before a plain
     * string, digits, case changed, its digits changed; two tokens joined, with digits or a
     * separator between; a token between two others. At most MAX_COMBOS, none twice, in an order
     * that depends only on the tokens and separators.
     */
    static List<String> combos(List<String> tokens, String separators) {
        Set<String> out = new LinkedHashSet<>();
        for (String t : tokens) {
            out.add(t);
        }
        for (String t : tokens) {
            for (String f : FILLERS) {
                out.add(t + f);
                out.add(f + t);
            }
            out.add(t.toUpperCase(Locale.ROOT));
            out.add(t.toLowerCase(Locale.ROOT));
            out.add(nextDigits(t));
            out.add(t + " ");
        }
        List<String> paired = tokens.subList(0, Math.min(PAIRED, tokens.size()));
        List<String> between = new ArrayList<>();
        Collections.addAll(between, "", "42");
        for (char sep : separators.toCharArray()) {
            between.add(String.valueOf(sep));
        }
        for (String mid : between) {
            for (String a : paired) {
                for (String b : paired) {
                    out.add(a + mid + b);
                }
            }
        }
        for (String a : paired) {
            for (String b : paired) {
                for (String c : paired) {
                    if (!a.equals(b) && !b.equals(c)) {
                        out.add(a + "42" + b + "7" + c);
                    }
                }
            }
        }
        List<String> list = new ArrayList<>(out);
        return list.subList(0, Math.min(MAX_COMBOS, list.size()));
    }

    /** t with each digit one up (9 to 0): "v1" to "v2", a version or a count next to the one seen. */
    private static String nextDigits(String t) {
        StringBuilder sb = new StringBuilder(t.length());
        for (char ch : t.toCharArray()) {
            sb.append(ch >= '0' && ch <= '9' ? (char) ('0' + (ch - '0' + 1) % 10) : ch);
        }
        return sb.toString();
    }

    /** What the seeding pass saw: tokens, characters and int constants, in the order first seen. */
    static final class Seen {
        final Set<String> tokens = new LinkedHashSet<>();
        final Set<Character> chars = new LinkedHashSet<>();
        final Set<Long> ints = new LinkedHashSet<>();

        /**
         * Keeps what one call's notes compared that its input did not hold: an operand that is a
         * substring of an argument string is the input (or a piece of it), not a token.
         */
        boolean note(List<String[]> notes, List<String> argStrings) {
            int before = tokens.size() + chars.size();
            for (String[] n : notes) {
                switch (n[0]) {
                    case "s":
                        for (int i = 1; i < n.length; i++) {
                            token(n[i], argStrings);
                        }
                        break;
                    case "i":
                        int v = Integer.parseInt(n[1]);
                        if (v >= 0x20 && v < 0x7f) {
                            chars.add((char) v);
                        }
                        if (ints.size() < 16) {
                            ints.add((long) v);
                        }
                        break;
                    case "k":
                        for (char ch : n[1].toCharArray()) {
                            if (ch >= 0x20 && ch < 0x7f) {
                                chars.add(ch);
                            }
                        }
                        break;
                    case "c":
                        char rep = classChar(n[1]);
                        if (rep != 0) {
                            chars.add(rep);
                        }
                        break;
                    default:
                        break;
                }
            }
            return tokens.size() + chars.size() > before;
        }

        private void token(String s, List<String> argStrings) {
            if (s == null || s.isEmpty() || s.length() > MAX_LENGTH || tokens.size() >= MAX_TOKENS) {
                return;
            }
            for (String a : argStrings) {
                if (a.contains(s)) {
                    return;
                }
            }
            tokens.add(s);
        }
    }

    /** A character of the class a Character.isX test asks about (0 for none). */
    static char classChar(String test) {
        switch (test) {
            case "isDigit":
                return '7';
            case "isWhitespace":
            case "isSpaceChar":
                return ' ';
            case "isUpperCase":
                return 'Q';
            case "isLetter":
            case "isLetterOrDigit":
            case "isAlphabetic":
            case "isLowerCase":
            case "isJavaIdentifierStart":
            case "isJavaIdentifierPart":
                return 'q';
            default:
                return 0;
        }
    }

    /**
     * The seeding pass: the plan's inputs for a third of the budget, then rounds of inputs made
     * of what was seen, until a round sees nothing new or the budget is spent; writes the seeds
     * line and the end line.
     */
    static void search(ClassLoader loader, Inputs gen, CallRunner runner, Executable target, Class<?> c, List<Input> plan,
            Type[] ptypes, long budgetMillis, int maxTimeouts, Access access, Output output) throws Exception {
        Method drain = drainMethod(loader);
        Seen seen = new Seen();
        long start = System.nanoTime();
        long deadline = start + budgetMillis * 1_000_000L;
        long firstPart = start + budgetMillis * 1_000_000L / 3;
        int[] timeouts = {0};
        int runs = 0;
        Set<String> tried = new java.util.HashSet<>();
        for (Input in : plan) {
            if (System.nanoTime() > firstPart || timeouts[0] >= maxTimeouts) {
                break;
            }
            runs += call(in, drain, seen, runner, target, c, access, tried, timeouts) ? 1 : 0;
        }
        Input base = plan.isEmpty() ? null : plan.get(0);
        List<String> statics = constantStrings(loader, c);
        for (int round = 0; round < 4 && base != null; round++) {
            List<String> tokens = new ArrayList<>(seen.tokens);
            if (round == 0) {
                tokens.addAll(statics);
            }
            boolean fresh = false;
            for (Input in : variants(base, ptypes, combos(tokens, separators(seen.chars)), seen.chars)) {
                if (System.nanoTime() > deadline || timeouts[0] >= maxTimeouts) {
                    break;
                }
                int before = seen.tokens.size() + seen.chars.size();
                runs += call(in, drain, seen, runner, target, c, access, tried, timeouts) ? 1 : 0;
                fresh |= seen.tokens.size() + seen.chars.size() > before;
            }
            if (!fresh && round > 0) {
                break;
            }
        }
        output.seeds(new ArrayList<>(seen.tokens), seen.chars, seen.ints);
        output.end(runs);
    }

    /** The seen characters that are neither letters nor digits nor blanks: the separators. */
    static String separators(Set<Character> chars) {
        StringBuilder all = new StringBuilder();
        for (char ch : chars) {
            all.append(ch);
        }
        return separators(all.toString());
    }

    static String separators(String chars) {
        StringBuilder sb = new StringBuilder();
        for (char ch : chars.toCharArray()) {
            if (!Character.isLetterOrDigit(ch) && !Character.isWhitespace(ch) && sb.length() < 4) {
                sb.append(ch);
            }
        }
        return sb.toString();
    }

    /**
     * The base input with each string (or CharSequence) argument in turn replaced by each combo,
     * and each char argument by each seen character: the other arguments and the receiver stay.
     */
    private static List<Input> variants(Input base, Type[] ptypes, List<String> combos, Set<Character> chars) {
        List<Input> out = new ArrayList<>();
        for (int i = 0; i < ptypes.length && i < base.args.size(); i++) {
            Class<?> raw = Types.raw(ptypes[i]);
            if (raw == String.class || raw == CharSequence.class || raw == Object.class) {
                for (String s : combos) {
                    out.add(with(base, i, new Const(s, Exprs.stringExpr(s), Exprs.stringToken(s))));
                }
            } else if (raw == char.class || raw == Character.class) {
                for (char ch : chars) {
                    out.add(with(base, i, new Const(ch, Exprs.charExpr(ch), "Char")));
                }
            }
        }
        return out;
    }

    private static Input with(Input base, int i, Gen g) {
        List<Gen> args = new ArrayList<>(base.args);
        args.set(i, g);
        Receiver r = base.receiver;
        return new Input(r, args, base.graph);
    }

    /** Runs one input (once: the same input twice sees the same) and notes what it compared. */
    private static boolean call(Input in, Method drain, Seen seen, CallRunner runner, Executable target, Class<?> c,
            Access access, Set<String> tried, int[] timeouts) throws Exception {
        Names names = access.names();
        List<String> exprs = new ArrayList<>();
        List<String> argStrings = new ArrayList<>();
        for (Gen g : in.args) {
            exprs.add(g.expr(names));
            if (g instanceof Const && ((Const) g).value instanceof CharSequence) {
                argStrings.add(((Const) g).value.toString());
            }
        }
        String key = (in.receiver == null ? "" : in.receiver.make.expr(names)) + exprs;
        if (!tried.add(key)) {
            return false;
        }
        if (drain != null) {
            drain.invoke(null); // what the making of earlier inputs or an abandoned call left
        }
        String outcome = runner.execute(target, c, in, names);
        if (Output.isKind(outcome, Output.OUT_TIMEOUT) || Output.isKind(outcome, Output.OUT_BOUND)) {
            timeouts[0]++;
        }
        if (drain != null) {
            @SuppressWarnings("unchecked")
            List<String[]> notes = (List<String[]>) drain.invoke(null);
            seen.note(notes, argStrings);
        }
        return true;
    }

    /** Compares.drain of the worker's hook, or null outside a worker (nothing is recorded then). */
    private static Method drainMethod(ClassLoader loader) {
        try {
            return Class.forName("advertest.worker.hook.Compares", true, loader).getMethod("drain");
        } catch (ReflectiveOperationException | LinkageError e) {
            return null;
        }
    }

    /**
     * The short string constants of c's class file and of the project classes it names (depth
     * one): a project class is one whose class file the run's loader reads from a folder, not from
     * a jar. Bounded, in the constant pools' order.
     */
    static List<String> constantStrings(ClassLoader loader, Class<?> c) {
        Set<String> out = new LinkedHashSet<>();
        List<String> classes = new ArrayList<>();
        readPool(loader, c.getName().replace('.', '/'), out, classes);
        for (String k : classes) {
            if (out.size() >= MAX_TOKENS) {
                break;
            }
            if (!k.equals(c.getName().replace('.', '/'))) {
                readPool(loader, k, out, null);
            }
        }
        List<String> list = new ArrayList<>(out);
        return list.subList(0, Math.min(MAX_TOKENS, list.size()));
    }

    private static void readPool(ClassLoader loader, String internalName, Set<String> strings, List<String> classes) {
        URL u = loader.getResource(internalName + ".class");
        if (u == null || !u.getProtocol().equals("file")) {
            return;
        }
        try (InputStream raw = u.openStream(); DataInputStream in = new DataInputStream(raw)) {
            ConstantPool.read(in, strings, classes, MAX_LENGTH);
        } catch (IOException | RuntimeException e) {
            // an unreadable class file gives no constants
        }
    }

    /** A class file's constant pool: its string constants and the classes it names. */
    static final class ConstantPool {
        private ConstantPool() {
        }

        static void read(DataInputStream in, Set<String> strings, List<String> classes, int maxLength) throws IOException {
            if (in.readInt() != 0xCAFEBABE) {
                return;
            }
            in.readUnsignedShort();
            in.readUnsignedShort();
            int n = in.readUnsignedShort();
            String[] utf = new String[n];
            List<Integer> stringRefs = new ArrayList<>();
            List<Integer> classRefs = new ArrayList<>();
            for (int i = 1; i < n; i++) {
                int tag = in.readUnsignedByte();
                switch (tag) {
                    case 1:
                        utf[i] = in.readUTF();
                        break;
                    case 7:
                        classRefs.add(in.readUnsignedShort());
                        break;
                    case 8:
                        stringRefs.add(in.readUnsignedShort());
                        break;
                    case 16: case 19: case 20:
                        in.readUnsignedShort();
                        break;
                    case 15:
                        in.readUnsignedByte();
                        in.readUnsignedShort();
                        break;
                    case 3: case 4: case 9: case 10: case 11: case 12: case 17: case 18:
                        in.readInt();
                        break;
                    case 5: case 6:
                        in.readLong();
                        i++; // a long or double takes two entries
                        break;
                    default:
                        return; // a tag this reader does not know: stop rather than misread
                }
            }
            for (int r : stringRefs) {
                String s = r < n ? utf[r] : null;
                if (s != null && !s.isEmpty() && s.length() <= maxLength) {
                    strings.add(s);
                }
            }
            if (classes != null) {
                for (int r : classRefs) {
                    String k = r < n ? utf[r] : null;
                    if (k != null && !k.startsWith("[") && !k.startsWith("java/")) {
                        classes.add(k);
                    }
                }
            }
        }
    }
}
