import org.junit.runner.JUnitCore;
import org.junit.runner.Request;
import org.junit.runner.Result;

/** Runs one JUnit 4 test method in a plain JVM (the reference for coverage and the benchmark). */
public class RunOne {
    public static void main(String[] args) throws Exception {
        Result r = new JUnitCore().run(Request.method(Class.forName(args[0]), args[1]));
        System.out.println("run=" + r.getRunCount() + " failures=" + r.getFailureCount());
    }
}
