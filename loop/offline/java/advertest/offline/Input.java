package advertest.offline;

import java.lang.reflect.Method;
import java.util.List;

/** One planned input: the receiver (null for static methods and constructors) and the arguments. */
final class Input {
    final Receiver receiver;
    final List<Gen> args;
    /** The graph the arguments' nodes belong to (Linked), built before the arguments are made; null for none. */
    final Linked.Graph graph;

    Input(Receiver receiver, List<Gen> args) {
        this(receiver, args, null);
    }

    Input(Receiver receiver, List<Gen> args, Linked.Graph graph) {
        this.receiver = receiver;
        this.args = args;
        this.graph = graph;
    }

    /** How the receiver of an instance method is made: an enum constant, or a constructor and setup calls. */
    static final class Receiver {
        final Gen make;
        final List<Call> setup;

        Receiver(Gen make, List<Call> setup) {
            this.make = make;
            this.setup = setup;
        }
    }

    /** A setup call on the receiver before the call under test. */
    static final class Call {
        final Method method;
        final List<Gen> args;

        Call(Method method, List<Gen> args) {
            this.method = method;
            this.args = args;
        }

        String expr(Names names) {
            StringBuilder sb = new StringBuilder(method.getName()).append('(');
            for (int i = 0; i < args.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append(args.get(i).expr(names));
            }
            return sb.append(')').toString();
        }

        String token() {
            StringBuilder sb = new StringBuilder(Exprs.capitalize(method.getName()));
            for (Gen g : args) {
                sb.append(g.token());
            }
            return sb.toString();
        }
    }
}
