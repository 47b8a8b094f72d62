package advertest.worker;

import java.util.HashSet;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

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
            cr.accept(new ClassVisitor(Opcodes.ASM9, cw) {
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
            }, 0);
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
}
