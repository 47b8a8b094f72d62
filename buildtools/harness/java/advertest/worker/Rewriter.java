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
 * Rewrites a class the run loader defines: every backward jump first calls Hook.check() (so an
 * endless loop throws a TimeoutError on its own thread once the test's budget is spent), and
 * System.exit / Runtime.exit / Runtime.halt become a throw of ExitError. Works on every JDK, unlike
 * Thread.stop and the Security Manager. Deterministic: the same input gives the same bytes, which
 * matters because JaCoCo must analyse exactly the bytes given to defineClass.
 */
final class Rewriter {
    private static final String HOOK = "advertest/worker/hook/Hook";

    private Rewriter() {
    }

    /**
     * The rewritten bytes, or the input unchanged when ASM cannot read it (a too new class file).
     * loopChecks adds the deadline check to backward jumps (overrides and generated tests): it adds
     * instructions, which JaCoCo would count, so the project's own classes only get the exit
     * rewrite and their coverage stays exactly what JaCoCo reports for the unchanged class.
     */
    static byte[] rewrite(byte[] in, boolean loopChecks) {
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
            return changed[0] ? cw.toByteArray() : in;
        } catch (RuntimeException e) {
            return in;
        }
    }
}
