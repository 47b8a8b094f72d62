package advertest.worker;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Handle;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.ClassNode;
import org.objectweb.asm.tree.FieldInsnNode;
import org.objectweb.asm.tree.IincInsnNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.InvokeDynamicInsnNode;
import org.objectweb.asm.tree.JumpInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.MultiANewArrayInsnNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;
import org.objectweb.asm.tree.TryCatchBlockNode;
import org.objectweb.asm.tree.TypeInsnNode;
import org.objectweb.asm.tree.VarInsnNode;

/**
 * Bytecode digests for trivial compiler equivalence (docs/worker-protocol.md, "Digests"): two
 * compiles of a source whose digests are equal behave alike, so a mutant with the original's
 * digest is equivalent and two mutants with one digest are duplicates.
 *
 * <p>The digest covers every class compiled from the source (nested, inner, local, anonymous and
 * other top-level classes of the file), read with SKIP_DEBUG and SKIP_FRAMES (line numbers, local
 * variable names, the source file's name and the stack map frames are left out: none of them
 * changes what the code does). Each class's declarations (fields with their constant values,
 * method headers, annotations, inner-class table) are written back by ASM without code, so the
 * constant pool's order is ASM's, not javac's; each method's code is written as its control-flow
 * graph in a canonical order (the order in which a walk from the entry first reaches each
 * instruction, gotos followed, unreachable code left out, each instruction with its successors
 * and the handlers that cover it), so the layout javac chose for the blocks does not matter.
 * Max stack and locals are left out too.
 *
 * <p>For a mutant schema, each switch of a site ({@code Mutant.active == K}, compiled as
 * {@code getstatic active; push K; if_icmpne/if_icmpeq}) is resolved for one active mutant at a
 * time: the digest "with K active" is that of the code a run with K active executes, the other
 * sites' originals. K absent from the bytecode means javac compiled the site away (dead code
 * under a compile-time constant condition). A read of the switch that is not such a test makes
 * the whole result "opaque": nothing is said about the schema's mutants.
 *
 * <p>Computed on javac's bytes, before Rewriter's loop checks (which add calls at backward jumps
 * and method entries), so the instrumentation can never make two classes differ or agree.
 */
final class Digest {
    private static final String SWITCH_OWNER = "advertest/worker/hook/Mutant";
    private static final String SWITCH_NAME = "active";
    /** The newest class file version ASM 9.4 reads; see Rewriter. */
    private static final int MAX_MAJOR = 64;

    private Digest() {
    }

    /**
     * The digests of the classes of one source, by binary name: {@code original} (no mutant
     * active), {@code mutants} {"K": digest with schema mutant K active} for each K whose
     * switches are all recognised, {@code unknown} [K whose switches are not], {@code opaque}
     * when a switch read is not a test against a constant, {@code error} when ASM could not
     * read a class (then there is nothing else).
     */
    static Map<String, Object> of(Map<String, byte[]> classes) {
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            List<ClassNode> nodes = new ArrayList<>();
            for (Map.Entry<String, byte[]> e : new TreeMap<>(classes).entrySet()) {
                nodes.add(read(e.getValue()));
            }
            TreeSet<Integer> known = new TreeSet<>();
            TreeSet<Integer> unknown = new TreeSet<>();
            boolean[] opaque = new boolean[1];
            // Each method's code digest with no mutant active, and with each mutant active
            // whose switch it holds (a method without K's switch runs the same code either way:
            // schema ids start at 1, so no switch of another K resolves differently).
            List<List<Map<Integer, byte[]>>> code = new ArrayList<>();
            List<byte[]> decls = new ArrayList<>();
            for (ClassNode cn : nodes) {
                List<Map<Integer, byte[]>> perMethod = new ArrayList<>();
                for (MethodNode mn : cn.methods) {
                    TreeSet<Integer> here = new TreeSet<>();
                    scanSwitches(mn.instructions, here, unknown, opaque);
                    known.addAll(here);
                    Map<Integer, byte[]> d = new LinkedHashMap<>();
                    Graph g = new Graph(mn);
                    d.put(0, sha(g.canonical(0)));
                    for (int k : here) {
                        d.put(k, sha(g.canonical(k)));
                    }
                    perMethod.add(d);
                    mn.instructions = new InsnList();
                    mn.tryCatchBlocks = new ArrayList<>();
                    mn.localVariables = null;
                    mn.visibleLocalVariableAnnotations = null;
                    mn.invisibleLocalVariableAnnotations = null;
                }
                code.add(perMethod);
                // The declarations, written without code.
                ClassWriter cw = new ClassWriter(0);
                cn.accept(cw);
                decls.add(cw.toByteArray());
            }
            known.removeAll(unknown);
            List<Integer> actives = new ArrayList<>();
            actives.add(0);
            if (!opaque[0]) {
                actives.addAll(known);
            }
            Map<Integer, MessageDigest> sha = new LinkedHashMap<>();
            for (int a : actives) {
                MessageDigest md = MessageDigest.getInstance("SHA-256");
                for (int c = 0; c < nodes.size(); c++) {
                    ClassNode cn = nodes.get(c);
                    update(md, "class " + cn.name + "\n");
                    md.update(decls.get(c));
                    for (int j = 0; j < cn.methods.size(); j++) {
                        MethodNode mn = cn.methods.get(j);
                        Map<Integer, byte[]> d = code.get(c).get(j);
                        update(md, "\nmethod " + mn.name + mn.desc + "\n");
                        md.update(d.getOrDefault(a, d.get(0)));
                    }
                }
                sha.put(a, md);
            }
            out.put("original", hex(sha.get(0).digest()));
            Map<String, Object> ms = new LinkedHashMap<>();
            for (int a : actives) {
                if (a != 0) {
                    ms.put(Integer.toString(a), hex(sha.get(a).digest()));
                }
            }
            out.put("mutants", ms);
            out.put("unknown", new ArrayList<>(unknown));
            out.put("opaque", opaque[0]);
        } catch (RuntimeException | NoSuchAlgorithmException e) {
            out.clear();
            out.put("error", String.valueOf(e));
        }
        return out;
    }

    private static ClassNode read(byte[] bytes) {
        byte[] in = bytes;
        int major = bytes.length > 8 ? ((bytes[6] & 0xff) << 8) | (bytes[7] & 0xff) : 0;
        if (major > MAX_MAJOR) {
            // As Rewriter: read a newer class file as version 64; the version is in the digest
            // only through the header, equally for both sides.
            in = bytes.clone();
            in[6] = (byte) (MAX_MAJOR >> 8);
            in[7] = (byte) MAX_MAJOR;
        }
        ClassNode cn = new ClassNode(Opcodes.ASM9);
        new ClassReader(in).accept(cn, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        cn.version = major > MAX_MAJOR ? major : cn.version;
        return cn;
    }

    /** A schema switch at insn: getstatic Mutant.active, directly followed by an int constant. */
    private static boolean isSwitchRead(AbstractInsnNode insn) {
        if (insn.getOpcode() != Opcodes.GETSTATIC) {
            return false;
        }
        FieldInsnNode f = (FieldInsnNode) insn;
        return f.owner.equals(SWITCH_OWNER) && f.name.equals(SWITCH_NAME);
    }

    /** The int an instruction pushes as a constant, or null. */
    private static Integer intConstant(AbstractInsnNode insn) {
        if (insn == null) {
            return null;
        }
        int op = insn.getOpcode();
        if (op >= Opcodes.ICONST_M1 && op <= Opcodes.ICONST_5) {
            return op - Opcodes.ICONST_0;
        }
        if (op == Opcodes.BIPUSH || op == Opcodes.SIPUSH) {
            return ((IntInsnNode) insn).operand;
        }
        if (op == Opcodes.LDC && ((LdcInsnNode) insn).cst instanceof Integer) {
            return (Integer) ((LdcInsnNode) insn).cst;
        }
        return null;
    }

    /** The switch test starting at insn (getstatic; push K; if_icmpne/if_icmpeq, adjacent), or null. */
    private static JumpInsnNode switchJump(AbstractInsnNode insn) {
        if (!isSwitchRead(insn) || intConstant(insn.getNext()) == null) {
            return null;
        }
        AbstractInsnNode j = insn.getNext().getNext();
        if (j != null && (j.getOpcode() == Opcodes.IF_ICMPNE || j.getOpcode() == Opcodes.IF_ICMPEQ)) {
            return (JumpInsnNode) j;
        }
        return null;
    }

    private static void scanSwitches(InsnList insns, TreeSet<Integer> known, TreeSet<Integer> unknown, boolean[] opaque) {
        for (AbstractInsnNode n = insns.getFirst(); n != null; n = n.getNext()) {
            if (!isSwitchRead(n)) {
                continue;
            }
            Integer k = intConstant(n.getNext());
            if (k == null) {
                opaque[0] = true;
            } else if (switchJump(n) == null) {
                unknown.add(k);
            } else {
                known.add(k);
            }
        }
    }

    /**
     * The method's code as its control-flow graph in canonical order, with the schema's switches
     * resolved for mutant active (0: none): one line per reachable instruction, "#N insn ->
     * successors [handlers]".
     */
    static String canonicalCode(MethodNode mn, int active) {
        return new Graph(mn).canonical(active);
    }

    /**
     * A method's instructions indexed once for all its canonical walks: a schema's method is
     * walked once per mutant whose switch it holds (77 times for the example's indexOf), and
     * indexing it, writing each instruction's text and listing its successors on every walk
     * was most of the schema's digest time.
     */
    static final class Graph {
        static final int END = -1; // past the last instruction (not in verified code)
        static final int SPIN = -2; // a cycle of gotos: an endless loop without instructions
        private static final int PLAIN = 0;
        private static final int GOTO = 1;
        private static final int SWITCH = 2;

        private final int size;
        private final String[] text; // each instruction without its jump targets
        private final int[][] jumps; // its successors other than the fall-through, unresolved
        private final boolean[] falls;
        private final int[][] handlers; // the handlers that cover it, in the table's order (the first match wins)
        private final String[][] handlerTypes;
        // resolve's view of it: a goto's target; a switch's constant, sense, target and fall-through
        private final int[] kind;
        private final int[] target;
        private final int[] switchK;
        private final boolean[] switchEq;
        private final int[] switchFall;

        Graph(MethodNode mn) {
            InsnList insns = mn.instructions;
            List<AbstractInsnNode> real = new ArrayList<>();
            Map<AbstractInsnNode, Integer> index = new IdentityHashMap<>();
            for (AbstractInsnNode n = insns.getFirst(); n != null; n = n.getNext()) {
                if (n.getOpcode() >= 0) {
                    index.put(n, real.size());
                    real.add(n);
                }
            }
            size = real.size();
            Map<LabelNode, Integer> at = new IdentityHashMap<>();
            int next = size;
            for (AbstractInsnNode n = insns.getLast(); n != null; n = n.getPrevious()) {
                if (n.getOpcode() >= 0) {
                    next = index.get(n);
                } else if (n instanceof LabelNode) {
                    at.put((LabelNode) n, next);
                }
            }
            text = new String[size];
            jumps = new int[size][];
            falls = new boolean[size];
            kind = new int[size];
            target = new int[size];
            switchK = new int[size];
            switchEq = new boolean[size];
            switchFall = new int[size];
            StringBuilder b = new StringBuilder();
            for (int p = 0; p < size; p++) {
                AbstractInsnNode n = real.get(p);
                b.setLength(0);
                text(b, n);
                text[p] = b.toString();
                jumps[p] = successors(n, at);
                falls[p] = fallsThrough(n);
                JumpInsnNode sw;
                if (n.getOpcode() == Opcodes.GOTO) {
                    kind[p] = GOTO;
                    target[p] = at.get(((JumpInsnNode) n).label);
                } else if ((sw = switchJump(n)) != null) {
                    kind[p] = SWITCH;
                    switchK[p] = intConstant(n.getNext());
                    switchEq[p] = sw.getOpcode() == Opcodes.IF_ICMPEQ;
                    target[p] = at.get(sw.label);
                    switchFall[p] = index.get(sw) + 1;
                }
            }
            List<List<TryCatchBlockNode>> covers = new ArrayList<>();
            for (int p = 0; p < size; p++) {
                covers.add(new ArrayList<>());
            }
            for (TryCatchBlockNode t : mn.tryCatchBlocks) {
                for (int p = at.get(t.start); p < at.get(t.end); p++) {
                    covers.get(p).add(t);
                }
            }
            handlers = new int[size][];
            handlerTypes = new String[size][];
            for (int p = 0; p < size; p++) {
                List<TryCatchBlockNode> c = covers.get(p);
                handlers[p] = new int[c.size()];
                handlerTypes[p] = new String[c.size()];
                for (int h = 0; h < c.size(); h++) {
                    handlers[p][h] = at.get(c.get(h).handler);
                    handlerTypes[p][h] = c.get(h).type;
                }
            }
        }

        /** The successors of n other than its fall-through, unresolved. */
        private static int[] successors(AbstractInsnNode n, Map<LabelNode, Integer> at) {
            if (n instanceof JumpInsnNode) {
                return new int[] {at.get(((JumpInsnNode) n).label)};
            }
            LabelNode dflt;
            List<LabelNode> labels;
            if (n instanceof TableSwitchInsnNode) {
                dflt = ((TableSwitchInsnNode) n).dflt;
                labels = ((TableSwitchInsnNode) n).labels;
            } else if (n instanceof LookupSwitchInsnNode) {
                dflt = ((LookupSwitchInsnNode) n).dflt;
                labels = ((LookupSwitchInsnNode) n).labels;
            } else {
                return new int[0];
            }
            int[] out = new int[labels.size() + 1];
            out[0] = at.get(dflt);
            for (int k = 0; k < labels.size(); k++) {
                out[k + 1] = at.get(labels.get(k));
            }
            return out;
        }

        /** Follows gotos and the switches resolved for active to the instruction that really runs next. */
        private int resolve(int p, int active) {
            for (int steps = 0; steps <= size; steps++) {
                if (p >= size) {
                    return END;
                }
                switch (kind[p]) {
                    case GOTO:
                        p = target[p];
                        continue;
                    case SWITCH:
                        boolean equal = switchK[p] == active;
                        p = (switchEq[p] ? equal : !equal) ? target[p] : switchFall[p];
                        continue;
                    default:
                        return p;
                }
            }
            return SPIN;
        }

        String canonical(int active) {
            if (size == 0) {
                return "";
            }
            // The walk: from the entry, along fall-throughs first; other successors wait in order.
            int[] id = new int[size];
            Arrays.fill(id, -1);
            int[] order = new int[size];
            int count = 0;
            ArrayDeque<Integer> pending = new ArrayDeque<>();
            pending.add(0);
            while (!pending.isEmpty()) {
                int p = resolve(pending.poll(), active);
                while (p >= 0 && id[p] < 0) {
                    id[p] = count;
                    order[count++] = p;
                    for (int s : jumps[p]) {
                        pending.add(s);
                    }
                    for (int h : handlers[p]) {
                        pending.add(h);
                    }
                    p = falls[p] ? resolve(p + 1, active) : -1;
                }
            }
            StringBuilder b = new StringBuilder(count * 24);
            for (int k = 0; k < count; k++) {
                int p = order[k];
                b.append('#').append(k).append(' ').append(text[p]).append(" ->");
                for (int s : jumps[p]) {
                    b.append(' ');
                    name(b, id, resolve(s, active));
                }
                if (falls[p]) {
                    b.append(" next ");
                    name(b, id, resolve(p + 1, active));
                }
                for (int h = 0; h < handlers[p].length; h++) {
                    b.append(" catch ").append(handlerTypes[p][h]).append(' ');
                    name(b, id, resolve(handlers[p][h], active));
                }
                b.append('\n');
            }
            return b.toString();
        }

        private static void name(StringBuilder b, int[] id, int p) {
            if (p == END) {
                b.append("end");
            } else if (p == SPIN) {
                b.append("spin");
            } else {
                b.append('#').append(id[p]);
            }
        }
    }

    private static boolean fallsThrough(AbstractInsnNode n) {
        int op = n.getOpcode();
        switch (op) {
            case Opcodes.GOTO: case Opcodes.TABLESWITCH: case Opcodes.LOOKUPSWITCH: case Opcodes.ATHROW: case Opcodes.RET:
                return false;
            default:
                return !(op >= Opcodes.IRETURN && op <= Opcodes.RETURN);
        }
    }

    /** One instruction without its jump targets, unambiguous (strings carry their length). */
    private static void text(StringBuilder b, AbstractInsnNode n) {
        b.append(n.getOpcode());
        if (n instanceof IntInsnNode) {
            b.append(' ').append(((IntInsnNode) n).operand);
        } else if (n instanceof VarInsnNode) {
            b.append(' ').append(((VarInsnNode) n).var);
        } else if (n instanceof TypeInsnNode) {
            b.append(' ').append(((TypeInsnNode) n).desc);
        } else if (n instanceof FieldInsnNode) {
            FieldInsnNode f = (FieldInsnNode) n;
            b.append(' ').append(f.owner).append('.').append(f.name).append(':').append(f.desc);
        } else if (n instanceof MethodInsnNode) {
            MethodInsnNode m = (MethodInsnNode) n;
            b.append(' ').append(m.owner).append('.').append(m.name).append(m.desc).append(m.itf ? " itf" : "");
        } else if (n instanceof InvokeDynamicInsnNode) {
            InvokeDynamicInsnNode d = (InvokeDynamicInsnNode) n;
            b.append(' ').append(d.name).append(d.desc).append(' ');
            constant(b, d.bsm);
            for (Object a : d.bsmArgs) {
                b.append(' ');
                constant(b, a);
            }
        } else if (n instanceof LdcInsnNode) {
            b.append(' ');
            constant(b, ((LdcInsnNode) n).cst);
        } else if (n instanceof IincInsnNode) {
            b.append(' ').append(((IincInsnNode) n).var).append(' ').append(((IincInsnNode) n).incr);
        } else if (n instanceof TableSwitchInsnNode) {
            b.append(' ').append(((TableSwitchInsnNode) n).min).append(' ').append(((TableSwitchInsnNode) n).max);
        } else if (n instanceof LookupSwitchInsnNode) {
            b.append(' ').append(((LookupSwitchInsnNode) n).keys);
        } else if (n instanceof MultiANewArrayInsnNode) {
            b.append(' ').append(((MultiANewArrayInsnNode) n).desc).append(' ').append(((MultiANewArrayInsnNode) n).dims);
        } else if (!(n instanceof InsnNode) && !(n instanceof JumpInsnNode)) {
            b.append(" ?").append(n.getClass().getSimpleName());
        }
    }

    /** A constant with its type: I5, J5, F1.0, D1.0, S3:abc, T<descriptor>, H<handle>, C<condy>. */
    private static void constant(StringBuilder b, Object c) {
        if (c instanceof String) {
            String s = (String) c;
            b.append('S').append(s.length()).append(':').append(s);
        } else if (c instanceof Integer) {
            b.append('I').append(c);
        } else if (c instanceof Long) {
            b.append('J').append(c);
        } else if (c instanceof Float) {
            b.append('F').append(Float.floatToRawIntBits((Float) c));
        } else if (c instanceof Double) {
            b.append('D').append(Double.doubleToRawLongBits((Double) c));
        } else if (c instanceof Handle) {
            Handle h = (Handle) c;
            b.append('H').append(h.getTag()).append(' ').append(h.getOwner()).append('.').append(h.getName())
                    .append(h.getDesc()).append(h.isInterface() ? " itf" : "");
        } else if (c instanceof org.objectweb.asm.Type) {
            b.append('T').append(((org.objectweb.asm.Type) c).getDescriptor());
        } else if (c instanceof org.objectweb.asm.ConstantDynamic) {
            org.objectweb.asm.ConstantDynamic d = (org.objectweb.asm.ConstantDynamic) c;
            b.append('C').append(d.getName()).append(d.getDescriptor()).append(' ');
            constant(b, d.getBootstrapMethod());
            for (int i = 0; i < d.getBootstrapMethodArgumentCount(); i++) {
                b.append(' ');
                constant(b, d.getBootstrapMethodArgument(i));
            }
        } else {
            b.append('?').append(c);
        }
    }

    private static byte[] sha(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void update(MessageDigest md, String s) {
        md.update(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String hex(byte[] d) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 16; i++) {
            b.append(String.format("%02x", d[i]));
        }
        return b.toString();
    }
}
