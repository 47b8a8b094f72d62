package advertest.worker;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;

/**
 * Rewrites a class the run loader defines: every backward jump and every method entry first calls
 * Hook.check() (so an endless loop, or an endless recursion that does not overflow the stack,
 * throws a TimeoutError on its own thread once the test's step or time budget is spent), and
 * System.exit / Runtime.exit / Runtime.halt become a throw of ExitError. Works on every JDK, unlike
 * Thread.stop and the Security Manager. Deterministic: the same input gives the same bytes, which
 * matters because JaCoCo must analyse exactly the bytes given to defineClass.
 */
final class Rewriter {
    private static final String HOOK = "advertest/worker/hook/Hook";
    /** The newest class file version ASM 9.4 reads (Java 20). */
    private static final int MAX_MAJOR = 64;

    private Rewriter() {
    }

    /**
     * The rewritten bytes, or the input unchanged when ASM cannot read it (a too new class file).
     * loopChecks adds the check to backward jumps and method entries (overrides and generated
     * tests), which also counts the test's steps: it adds
     * instructions, which JaCoCo would count, so the project's own classes only get the exit
     * rewrite and their coverage stays exactly what JaCoCo reports for the unchanged class.
     */
    static byte[] rewrite(byte[] original, boolean loopChecks) {
        return apply(original, (cw, changed) -> new ClassVisitor(Opcodes.ASM9, cw) {
                @Override
                public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] ex) {
                    return new MethodVisitor(Opcodes.ASM9, super.visitMethod(access, name, desc, sig, ex)) {
                        private final Set<Label> seen = new HashSet<>();

                        @Override
                        public void visitCode() {
                            super.visitCode();
                            if (loopChecks) {
                                // A static call with no operands is allowed before a constructor's super().
                                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "check", "()V", false);
                                changed[0] = true;
                            }
                        }

                        @Override
                        public void visitLabel(Label label) {
                            seen.add(label);
                            super.visitLabel(label);
                        }

                        @Override
                        public void visitJumpInsn(int opcode, Label label) {
                            if (loopChecks && seen.contains(label)) {
                                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "check", "()V", false);
                                changed[0] = true;
                            }
                            super.visitJumpInsn(opcode, label);
                        }

                        @Override
                        public void visitMethodInsn(int op, String owner, String name, String desc, boolean itf) {
                            if (op == Opcodes.INVOKESTATIC && owner.equals("java/lang/System")
                                    && name.equals("exit") && desc.equals("(I)V")) {
                                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, "exit", "(I)V", false);
                                changed[0] = true;
                                return;
                            }
                            if (op == Opcodes.INVOKEVIRTUAL && owner.equals("java/lang/Runtime")
                                    && (name.equals("exit") || name.equals("halt")) && desc.equals("(I)V")) {
                                String hook = name.equals("exit") ? "runtimeExit" : "runtimeHalt";
                                super.visitMethodInsn(Opcodes.INVOKESTATIC, HOOK, hook, "(Ljava/lang/Runtime;I)V", false);
                                changed[0] = true;
                                return;
                            }
                            super.visitMethodInsn(op, owner, name, desc, itf);
                        }
                    };
                }
            });
    }

    /** One rewrite: wraps the writer, and sets changed[0] when it changed anything. */
    private interface Pass {
        ClassVisitor wrap(ClassWriter cw, boolean[] changed);
    }

    /** original through pass; the input unchanged when ASM cannot read it or nothing changed. */
    private static byte[] apply(byte[] original, Pass pass) {
        // ASM 9.4 reads class files up to Java 20; newer ones are read (and written) as version 64
        // and get their own version back, the trick JaCoCo uses for class files newer than its ASM.
        int major = original.length > 8 ? ((original[6] & 0xff) << 8) | (original[7] & 0xff) : 0;
        byte[] in = original;
        if (major > MAX_MAJOR) {
            in = original.clone();
            in[6] = (byte) (MAX_MAJOR >> 8);
            in[7] = (byte) MAX_MAJOR;
        }
        try {
            ClassReader cr = new ClassReader(in);
            ClassWriter cw = new ClassWriter(cr, 0);
            boolean[] changed = new boolean[1];
            cr.accept(pass.wrap(cw, changed), 0);
            if (!changed[0]) {
                return original;
            }
            byte[] out = cw.toByteArray();
            if (major > MAX_MAJOR) {
                out[6] = (byte) (major >> 8);
                out[7] = (byte) major;
            }
            return out;
        } catch (RuntimeException e) {
            return original;
        }
    }

    private static final String COMPARES = "advertest/worker/hook/Compares";

    /**
     * The calls a recording run sends through Compares instead: "owner.name desc" → Compares's
     * method of the same result, which takes the receiver (if any) as its first argument, so the
     * operand stack is the same before and after.
     */
    private static final Map<String, String[]> RECORDED = new HashMap<>();

    private static void recorded(String owner, String name, String desc, String to, String toDesc) {
        RECORDED.put(owner + "." + name + desc, new String[] {to, toDesc});
    }

    static {
        String s = "java/lang/String";
        recorded(s, "equals", "(Ljava/lang/Object;)Z", "equals", "(Ljava/lang/String;Ljava/lang/Object;)Z");
        recorded(s, "equalsIgnoreCase", "(Ljava/lang/String;)Z", "equalsIgnoreCase", "(Ljava/lang/String;Ljava/lang/String;)Z");
        recorded(s, "startsWith", "(Ljava/lang/String;)Z", "startsWith", "(Ljava/lang/String;Ljava/lang/String;)Z");
        recorded(s, "startsWith", "(Ljava/lang/String;I)Z", "startsWith", "(Ljava/lang/String;Ljava/lang/String;I)Z");
        recorded(s, "endsWith", "(Ljava/lang/String;)Z", "endsWith", "(Ljava/lang/String;Ljava/lang/String;)Z");
        recorded(s, "contains", "(Ljava/lang/CharSequence;)Z", "contains", "(Ljava/lang/String;Ljava/lang/CharSequence;)Z");
        recorded(s, "indexOf", "(Ljava/lang/String;)I", "indexOf", "(Ljava/lang/String;Ljava/lang/String;)I");
        recorded(s, "indexOf", "(Ljava/lang/String;I)I", "indexOf", "(Ljava/lang/String;Ljava/lang/String;I)I");
        recorded(s, "lastIndexOf", "(Ljava/lang/String;)I", "lastIndexOf", "(Ljava/lang/String;Ljava/lang/String;)I");
        recorded(s, "indexOf", "(I)I", "indexOf", "(Ljava/lang/String;I)I");
        recorded(s, "indexOf", "(II)I", "indexOf", "(Ljava/lang/String;II)I");
        recorded(s, "lastIndexOf", "(I)I", "lastIndexOf", "(Ljava/lang/String;I)I");
        recorded(s, "compareTo", "(Ljava/lang/String;)I", "compareTo", "(Ljava/lang/String;Ljava/lang/String;)I");
        recorded(s, "compareToIgnoreCase", "(Ljava/lang/String;)I", "compareToIgnoreCase", "(Ljava/lang/String;Ljava/lang/String;)I");
        recorded("java/util/Objects", "equals", "(Ljava/lang/Object;Ljava/lang/Object;)Z", "objectsEquals", "(Ljava/lang/Object;Ljava/lang/Object;)Z");
        recorded("java/lang/Enum", "valueOf", "(Ljava/lang/Class;Ljava/lang/String;)Ljava/lang/Enum;", "enumValueOf", "(Ljava/lang/Class;Ljava/lang/String;)Ljava/lang/Enum;");
        for (String m : new String[] {"java/util/Map", "java/util/HashMap", "java/util/TreeMap", "java/util/LinkedHashMap"}) {
            recorded(m, "get", "(Ljava/lang/Object;)Ljava/lang/Object;", "mapGet", "(Ljava/util/Map;Ljava/lang/Object;)Ljava/lang/Object;");
            recorded(m, "containsKey", "(Ljava/lang/Object;)Z", "mapContainsKey", "(Ljava/util/Map;Ljava/lang/Object;)Z");
        }
        for (String c : new String[] {"java/util/Collection", "java/util/Set", "java/util/List", "java/util/HashSet", "java/util/TreeSet",
            "java/util/LinkedHashSet", "java/util/ArrayList"}) {
            recorded(c, "contains", "(Ljava/lang/Object;)Z", "collectionContains", "(Ljava/util/Collection;Ljava/lang/Object;)Z");
        }
    }

    /**
     * The bytes with their comparisons recorded (hook.Compares): the String comparisons and
     * keyword lookups of RECORDED go through Compares, a Character.isX test, a switch and an
     * int comparison whose second operand is a constant first note what they compare with.
     * Only for the runs that ask for it (the offline explorer's seeding pass, the run request's
     * recordCompares): it adds instructions, so never in a run that measures coverage, and
     * never in a mutant's. The input unchanged when ASM cannot read it or nothing is compared.
     */
    static byte[] recordCompares(byte[] original) {
        return apply(original, (cw, changed) -> new ClassVisitor(Opcodes.ASM9, cw) {
            @Override
            public MethodVisitor visitMethod(int access, String name, String desc, String sig, String[] ex) {
                return new CompareRecorder(super.visitMethod(access, name, desc, sig, ex), changed);
            }
        });
    }

    /**
     * One method's recording. The notes it inserts push one value and pass it to Compares at
     * once, never across a label, so the stack map frames stay valid; the method's maximum stack
     * grows by two for them.
     */
    private static final class CompareRecorder extends MethodVisitor {
        private final boolean[] changed;
        /** The int constant the last instruction pushed, or null when it pushed none. */
        private Integer lastConst;

        CompareRecorder(MethodVisitor mv, boolean[] changed) {
            super(Opcodes.ASM9, mv);
            this.changed = changed;
        }

        private void note(String method, String desc, Object constant) {
            super.visitLdcInsn(constant);
            super.visitMethodInsn(Opcodes.INVOKESTATIC, COMPARES, method, desc, false);
            changed[0] = true;
        }

        @Override
        public void visitInsn(int opcode) {
            super.visitInsn(opcode);
            lastConst = opcode >= Opcodes.ICONST_M1 && opcode <= Opcodes.ICONST_5 ? Integer.valueOf(opcode - Opcodes.ICONST_0) : null;
        }

        @Override
        public void visitIntInsn(int opcode, int operand) {
            super.visitIntInsn(opcode, operand);
            lastConst = opcode == Opcodes.BIPUSH || opcode == Opcodes.SIPUSH ? Integer.valueOf(operand) : null;
        }

        @Override
        public void visitLdcInsn(Object value) {
            super.visitLdcInsn(value);
            lastConst = value instanceof Integer ? (Integer) value : null;
        }

        @Override
        public void visitJumpInsn(int opcode, Label label) {
            if (lastConst != null && opcode >= Opcodes.IF_ICMPEQ && opcode <= Opcodes.IF_ICMPLE) {
                note("constant", "(I)V", lastConst);
            }
            lastConst = null;
            super.visitJumpInsn(opcode, label);
        }

        @Override
        public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
            keys(min, max, null);
            lastConst = null;
            super.visitTableSwitchInsn(min, max, dflt, labels);
        }

        @Override
        public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
            keys(0, -1, keys);
            lastConst = null;
            super.visitLookupSwitchInsn(dflt, keys, labels);
        }

        /** Notes a switch's keys that are characters (a string switch's hash codes are not). */
        private void keys(int min, int max, int[] keys) {
            StringBuilder sb = new StringBuilder();
            if (keys == null) {
                for (long k = min; k <= max && sb.length() < 64; k++) {
                    if (k > 0 && k <= Character.MAX_VALUE) {
                        sb.append((char) k);
                    }
                }
            } else {
                for (int k : keys) {
                    if (k > 0 && k <= Character.MAX_VALUE && sb.length() < 64) {
                        sb.append((char) k);
                    }
                }
            }
            if (sb.length() > 0) {
                note("keys", "(Ljava/lang/String;)V", sb.toString());
            }
        }

        @Override
        public void visitMethodInsn(int op, String owner, String name, String desc, boolean itf) {
            lastConst = null;
            String[] to = RECORDED.get(owner + "." + name + desc);
            if (to != null && (op == Opcodes.INVOKEVIRTUAL || op == Opcodes.INVOKEINTERFACE || op == Opcodes.INVOKESTATIC)) {
                super.visitMethodInsn(Opcodes.INVOKESTATIC, COMPARES, to[0], to[1], false);
                if (!Type.getReturnType(to[1]).equals(Type.getReturnType(desc))) {
                    // Enum.valueOf's result, erased to Enum in Compares too: the same type
                    super.visitTypeInsn(Opcodes.CHECKCAST, Type.getReturnType(desc).getInternalName());
                }
                changed[0] = true;
                return;
            }
            if (op == Opcodes.INVOKESTATIC && owner.equals("java/lang/Character") && name.startsWith("is")
                    && (desc.equals("(C)Z") || desc.equals("(I)Z"))) {
                note("charClass", "(Ljava/lang/String;)V", name);
            }
            super.visitMethodInsn(op, owner, name, desc, itf);
        }

        @Override
        public void visitMaxs(int maxStack, int maxLocals) {
            super.visitMaxs(maxStack + 2, maxLocals);
        }

        // Any other instruction, or a label, ends "the last instruction pushed a constant".

        @Override
        public void visitVarInsn(int opcode, int var) {
            lastConst = null;
            super.visitVarInsn(opcode, var);
        }

        @Override
        public void visitFieldInsn(int opcode, String owner, String name, String desc) {
            lastConst = null;
            super.visitFieldInsn(opcode, owner, name, desc);
        }

        @Override
        public void visitTypeInsn(int opcode, String type) {
            lastConst = null;
            super.visitTypeInsn(opcode, type);
        }

        @Override
        public void visitIincInsn(int var, int increment) {
            lastConst = null;
            super.visitIincInsn(var, increment);
        }

        @Override
        public void visitLabel(Label label) {
            lastConst = null;
            super.visitLabel(label);
        }

        @Override
        public void visitInvokeDynamicInsn(String name, String desc, org.objectweb.asm.Handle bsm, Object... args) {
            lastConst = null;
            super.visitInvokeDynamicInsn(name, desc, bsm, args);
        }

        @Override
        public void visitMultiANewArrayInsn(String desc, int dims) {
            lastConst = null;
            super.visitMultiANewArrayInsn(desc, dims);
        }
    }
}
