package org.acme.shapes;

import java.util.function.Supplier;

public class Shapes {
    Runnable onStart = new Runnable() {
        public void run() {
            System.out.println("start");
        }
    };

    public class Inner {
        int depth() {
            Object o = new Object() {
                @Override
                public String toString() {
                    return "inner-anon";
                }
            };
            class Local {
                int local() { return 1; }
            }
            return new Local().local();
        }
    }

    static class Nested {
        static class Deeper {
            static int deep(int x) { return x * 2; }
        }

        int nested() { return Deeper.deep(1); }
    }

    int area(int w, int h) {
        Supplier<Object> s = () -> new Object() {
            public String toString() { return "in-lambda"; }
        };
        Object p = new Object() {
            public int hashCode() {
                Object q = new Object() {
                    public String toString() { return "anon-in-anon"; }
                };
                return q.hashCode();
            }
        };
        class Local {
            int twice(int v) { return 2 * v; }
        }
        class Other {
            int other() { return 3; }
        }
        return new Local().twice(w * h) + p.hashCode() + s.hashCode() + new Other().other();
    }

    int perimeter(int w, int h) {
        class Local {
            int add(int a, int b) { return a + b; }
        }
        return 2 * new Local().add(w, h);
    }

    static Object shared = new Object() {
        public String toString() { return "static-field-anon"; }
    };
}

interface Shape {
    double PI_ISH = 3.14;

    double area();

    default String describe() {
        return "shape with area " + area();
    }

    static Shape unit() {
        return () -> 1.0;
    }
}
