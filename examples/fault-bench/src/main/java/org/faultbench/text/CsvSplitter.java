package org.faultbench.text;

import java.util.ArrayList;
import java.util.List;

/** Splits one line of comma-separated values as RFC 4180 quotes them. */
public final class CsvSplitter {

    private CsvSplitter() {
    }

    /**
     * The fields of line. A field in double quotes may hold commas, and a doubled quote inside
     * it stands for one quote: {@code a,"b,""c"""} is {@code [a, b,"c"]}.
     */
    public static List<String> split(String line) {
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
                        field.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else {
                field.append(c);
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("unterminated quote in: " + line);
        }
        fields.add(field.toString());
        return fields;
    }
}
