package advertest.offline;

import java.io.BufferedWriter;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The JSON-lines file the explorer writes, one line flushed at a time (a worker stopped mid-way
 * leaves every finished line readable): "unsupported" alone, or a header, one record per input
 * and an end line. loop/offline/explore.go reads it.
 */
final class Output implements AutoCloseable {
    private final BufferedWriter writer;

    Output(String path) throws IOException {
        writer = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8));
    }

    /** The method cannot be driven, and why. */
    void unsupported(String why) throws IOException {
        write("{\"unsupported\":" + JsonText.json(why) + "}");
    }

    /**
     * How the generated test names the types involved; overloaded says the method shares its
     * name and number of parameters with another (a null argument then needs a cast).
     */
    void header(List<String> declTypes, String returnType, String receiverType, String classRef, List<String> imports,
            boolean overloaded) throws IOException {
        write("{\"header\":true,\"declTypes\":" + JsonText.array(declTypes) + ",\"returnType\":" + JsonText.json(returnType)
            + ",\"receiverType\":" + JsonText.json(receiverType) + ",\"classRef\":" + JsonText.json(classRef)
            + ",\"imports\":" + JsonText.array(imports) + ",\"overloaded\":" + overloaded + "}");
    }

    /**
     * One input and its outcome (the JSON CallRunner made); recv is null for static methods and
     * constructors; graph the Arrange lines that build the input's linked nodes (empty for none);
     * site, when a probe watched the mutated expression, is the JSON of what it saw.
     */
    void record(int index, List<String> args, List<String> tokens, String recv, List<String> setup, String recvToken,
            List<String> graph, String graphToken, String outcome, List<String> imports, String site) throws IOException {
        StringBuilder line = new StringBuilder("{\"i\":").append(index);
        line.append(",\"args\":").append(JsonText.array(args));
        line.append(",\"tokens\":").append(JsonText.array(tokens));
        if (recv != null) {
            line.append(",\"recv\":").append(JsonText.json(recv));
            line.append(",\"setup\":").append(JsonText.array(setup));
            line.append(",\"recvToken\":").append(JsonText.json(recvToken));
        }
        if (!graph.isEmpty()) {
            line.append(",\"graph\":").append(JsonText.array(graph));
            line.append(",\"graphToken\":").append(JsonText.json(graphToken));
        }
        line.append(",\"out\":").append(outcome);
        line.append(",\"imports\":").append(JsonText.array(imports));
        if (site != null) {
            line.append(",\"site\":").append(site);
        }
        write(line.append('}').toString());
    }

    /** The exploration reached its end after inputs inputs. */
    void end(int inputs) throws IOException {
        write("{\"end\":true,\"inputs\":" + inputs + "}");
    }

    private void write(String line) throws IOException {
        writer.write(line);
        writer.write('\n');
        writer.flush();
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }
}
