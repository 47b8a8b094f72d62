package advertest.offline;

import java.util.List;

/** The bits of JSON the explorer writes: strings, flat objects of strings, arrays of strings. */
final class JsonText {
    private JsonText() {
    }

    static String json(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\').append(c);
            } else if (c < 32 || c > 126) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.append('"').toString();
    }

    static String obj(String... kv) {
        StringBuilder sb = new StringBuilder("{");
        for (int i = 0; i + 1 < kv.length; i += 2) {
            sb.append(i == 0 ? "" : ",").append(json(kv[i])).append(':').append(json(kv[i + 1]));
        }
        return sb.append('}').toString();
    }

    static String array(List<String> items) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < items.size(); i++) {
            sb.append(i == 0 ? "" : ",").append(json(items.get(i)));
        }
        return sb.append(']').toString();
    }
}
