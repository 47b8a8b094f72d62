package org.acme.unicode;

// Identifiers and strings outside ASCII; 𝄞 is outside the BMP (a surrogate pair in UTF-16).
class Ünïcode {
    private String clef = "𝄞 clef";

    public int größe(int länge) {
        return länge * 2; // 𝄞𝄞
    }

    public String block() {
        String text = """
            Hello, "world" 𝄞
            { not a brace }
            """;
        return text;
    }

    public String after() {
        return "after the text block";
    }

    public int 変数() { return 42; }
}
