package p;

public abstract class Shapes {
    private final int sides;

    protected Shapes(int sides) {
        this.sides = sides;
    }

    public Shapes() {
        this(0);
    }

    public static int twice(int x) {
        return 2 * x;
    }

    public static int twice(int x, int y) {
        return 2 * x + y;
    }

    public int sides() {
        return sides;
    }

    private boolean even() {
        return sides % 2 == 0;
    }

    protected abstract double area();

    static class Square extends Shapes {
        Square() {
            super(4);
        }

        @Override
        protected double area() {
            return 1;
        }
    }

    class Corner {
        int index() {
            Runnable r = new Runnable() {
                @Override
                public void run() {
                    System.out.println(sides);
                }
            };
            r.run();
            return sides;
        }
    }

    interface Named {
        default String name() {
            return "shape";
        }

        String plain();
    }
}
