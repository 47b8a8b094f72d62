package org.acme.nesting;

import java.util.function.Supplier;

/** Anonymous and local classes in the places javac numbers them. */
public class Nesting {
    static class A {
        A(Object o) {}

        void a() {}
    }

    // The arguments' anonymous class is numbered before the body's.
    Object x = new A(new Object() {
        void inArgs() {}
    }) {
        void outer() {}
    };

    enum E {
        P(new Object() {
            void enumArg() {}
        }) {
            void constBody() {}
        };

        E(Object o) {}
    }

    static {
        Object s = new Object() {
            void inStaticInit() {}
        };
    }

    {
        class InInit {
            void inInit() {}
        }
    }

    void locals() {
        record Pair(int a, int b) {
            int sum() { return a + b; }
        }
        enum Color { RED; void paint() {} }
        interface Greeter { default String hi() { return "hi"; } }
        String record = "record"; // a name, not a declaration
        Class<?> c = Nesting.class;
        /* new Object() { void inComment() {} } */
        String s = "new Object() { void inString() {} }";
        Supplier<Object> sup = () -> new Object() {
            void inLambda() {}
        };
    }

    Object qualified() {
        Nesting outer = new Nesting();
        return outer.new Inner() {
            void qualifiedAnon() {}
        };
    }

    class Inner {
        void inner() {}
    }
}
