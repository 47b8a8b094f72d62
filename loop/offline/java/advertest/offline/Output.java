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
    /*
     * The lines' vocabulary, the contract with the Go side (loop/offline/explore.go decodes the
     * lines; docs/explorer.md says what each name means). loop/offline/contract_test.go reads the
     * constants and arrays below from this file and checks them against the Go structs' JSON
     * tags, the kinds the Go code compares, docs/explorer.md, and the keys and kinds the other
     * classes of this package write (each through these constants): a name renamed on one side
     * fails it. One constant per line, as the test reads them.
     */

    // What a call did: the "k" of a record's "out".
    static final String OUT_RET = "ret";
    static final String OUT_THROW = "throw";
    static final String OUT_TIMEOUT = "timeout";
    static final String OUT_BOUND = "bound";
    static final String OUT_ARRANGE = "arrange";
    static final String OUT_CRASH = "crash";

    // How a value is written: the "k" of a value (an outcome's "ret", an observation's "r").
    static final String VAL_NULL = "null";
    static final String VAL_PRIM = "prim";
    static final String VAL_BOOL = "bool";
    static final String VAL_DOUBLE = "double";
    static final String VAL_FLOAT = "float";
    static final String VAL_STRING = "string";
    static final String VAL_ENUM = "enum";
    static final String VAL_ARRAY = "array";
    static final String VAL_DARRAY = "darray";
    static final String VAL_FARRAY = "farray";
    static final String VAL_EQUALS = "equals";
    static final String VAL_SAME = "same";
    static final String VAL_OBJECT = "object";
    static final String VAL_OPAQUE = "opaque";
    static final String VAL_THROWS = "throws";
    static final String VAL_VOID = "void";
    static final String VAL_BIG = "big";

    // The keys of each kind of object.
    static final String[] HEADER_FIELDS = {"header", "declTypes", "returnType", "receiverType", "classRef", "imports", "overloaded"};
    static final String[] RECORD_FIELDS = {"i", "args", "tokens", "recv", "setup", "recvToken", "graph", "graphToken", "out", "imports", "site"};
    static final String[] OUTCOME_FIELDS = {"k", "stopped", "ret", "x", "state", "after"};
    static final String[] VALUE_FIELDS = {"k", "v", "t", "via", "x", "obs"};
    static final String[] OBSERVED_FIELDS = {"m", "st", "d", "acc", "r"};
    static final String[] AFTER_FIELDS = {"a", "r"};
    static final String[] END_FIELDS = {"end", "inputs"};
    static final String[] UNSUPPORTED_FIELDS = {"unsupported", "minimal"};
    static final String[] KINDS_FIELDS = {"kinds", "can", "tried"};
    static final String[] SEEDS_FIELDS = {"seeds", "seedChars", "seedInts"};

    /** Whether json, an outcome or a value, is of kind k. */
    static boolean isKind(String json, String k) {
        return json.startsWith("{\"k\":" + JsonText.json(k));
    }

    /** The start of an object of kind k, for the keys that follow. */
    static String kindStart(String k) {
        return "{\"k\":" + JsonText.json(k);
    }

    private final BufferedWriter writer;

    Output(String path) throws IOException {
        writer = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(path), StandardCharsets.UTF_8));
    }

    /**
     * The method cannot be driven, and why; minimal, when not null, is the source of a minimal
     * subclass of its abstract receiver class that Go puts in the driver of a second run.
     */
    void unsupported(String why, String minimal) throws IOException {
        write("{\"unsupported\":" + JsonText.json(why) + (minimal == null ? "" : ",\"minimal\":" + JsonText.json(minimal)) + "}");
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

    /**
     * The kinds of value (Gen.kinds) each parameter's pool holds and those the inputs run had:
     * search evidence of equivalence counts only when every kind was tried.
     */
    void kinds(List<? extends java.util.Collection<String>> can, List<? extends java.util.Collection<String>> tried) throws IOException {
        StringBuilder line = new StringBuilder("{\"kinds\":[");
        for (int i = 0; i < can.size(); i++) {
            line.append(i == 0 ? "" : ",").append("{\"can\":").append(JsonText.array(new java.util.ArrayList<>(can.get(i))))
                .append(",\"tried\":").append(JsonText.array(new java.util.ArrayList<>(tried.get(i)))).append('}');
        }
        write(line.append("]}").toString());
    }

    /**
     * The seeding pass's one line (Seeds.search): the tokens, characters and int constants the
     * method's comparisons held, in the order first seen.
     */
    void seeds(List<String> tokens, java.util.Collection<Character> chars, java.util.Collection<Long> ints) throws IOException {
        StringBuilder cs = new StringBuilder();
        for (char ch : chars) {
            cs.append(ch);
        }
        StringBuilder is = new StringBuilder();
        for (long v : ints) {
            is.append(is.length() == 0 ? "" : ",").append(v);
        }
        write("{\"seeds\":" + JsonText.array(tokens) + ",\"seedChars\":" + JsonText.json(cs.toString()) + ",\"seedInts\":[" + is + "]}");
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
