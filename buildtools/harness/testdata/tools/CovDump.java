import java.io.File;
import java.io.FileInputStream;
import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.analysis.ILine;
import org.jacoco.core.tools.ExecFileLoader;

/** Prints "class line ci mi cb mb" for one class from a JaCoCo exec file: the coverage reference. */
public class CovDump {
    public static void main(String[] args) throws Exception {
        ExecFileLoader loader = new ExecFileLoader();
        loader.load(new File(args[0]));
        CoverageBuilder b = new CoverageBuilder();
        Analyzer a = new Analyzer(loader.getExecutionDataStore(), b);
        try (FileInputStream in = new FileInputStream(args[1])) {
            a.analyzeClass(in, args[1]);
        }
        for (IClassCoverage cc : b.getClasses()) {
            for (int n = cc.getFirstLine(); n > 0 && n <= cc.getLastLine(); n++) {
                ILine l = cc.getLine(n);
                if (l.getStatus() == ICounter.EMPTY) {
                    continue;
                }
                System.out.println(cc.getName().replace('/', '.') + " " + n + " " + l.getInstructionCounter().getCoveredCount() + " "
                        + l.getInstructionCounter().getMissedCount() + " " + l.getBranchCounter().getCoveredCount() + " "
                        + l.getBranchCounter().getMissedCount());
            }
        }
    }
}
