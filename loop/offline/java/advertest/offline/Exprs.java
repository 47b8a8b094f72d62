package advertest.offline;

/** Values as Java source (literals, constants) and as CamelCase tokens of a test's name. */
final class Exprs {
    private Exprs() {
    }

    static String camelNumber(String s) {
        StringBuilder sb = new StringBuilder();
        if (s.startsWith("-")) {
            sb.append("Minus");
            s = s.substring(1);
        }
        for (char c : s.toCharArray()) {
            if (Character.isLetterOrDigit(c)) {
                sb.append(c);
            } else if (c == '.') {
                sb.append("Point");
            }
        }
        return sb.toString();
    }

    static String capitalize(String s) {
        return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
    }

    static String stringToken(String s) {
        if (s == null) {
            return "Null";
        }
        if (s.isEmpty()) {
            return "Empty";
        }
        StringBuilder sb = new StringBuilder();
        boolean up = true;
        for (char c : s.toCharArray()) {
            if (sb.length() >= 12) {
                break;
            }
            if (c < 128 && Character.isLetterOrDigit(c)) {
                sb.append(up ? Character.toUpperCase(c) : c);
                up = false;
            } else {
                up = true;
            }
        }
        return sb.length() == 0 ? "Blank" : sb.toString();
    }

    static Gen.Const intConst(Class<?> t, long v) {
        Class<?> p = Types.unbox(t);
        String token = camelNumber(Long.toString(v));
        if (p == long.class) {
            String e = v == Long.MIN_VALUE ? "Long.MIN_VALUE" : v == Long.MAX_VALUE ? "Long.MAX_VALUE" : v + "L";
            return new Gen.Const(v, e, token);
        }
        if (p == int.class) {
            String e = v == Integer.MIN_VALUE ? "Integer.MIN_VALUE" : v == Integer.MAX_VALUE ? "Integer.MAX_VALUE" : Long.toString(v);
            return new Gen.Const((int) v, e, token);
        }
        if (p == short.class) {
            return new Gen.Const((short) v, "(short) " + (v < 0 ? "(" + v + ")" : Long.toString(v)), token);
        }
        return new Gen.Const((byte) v, "(byte) " + (v < 0 ? "(" + v + ")" : Long.toString(v)), token);
    }

    static String doubleExpr(double d, boolean isFloat) {
        String box = isFloat ? "Float" : "Double";
        if (Double.isNaN(d)) {
            return box + ".NaN";
        }
        if (Double.isInfinite(d)) {
            return (d > 0 ? box + ".POSITIVE_INFINITY" : box + ".NEGATIVE_INFINITY");
        }
        if (isFloat) {
            float f = (float) d;
            if (f == Float.MAX_VALUE) {
                return "Float.MAX_VALUE";
            }
            if (f == -Float.MAX_VALUE) {
                return "-Float.MAX_VALUE";
            }
            return Float.toString(f) + "f";
        }
        if (d == Double.MAX_VALUE) {
            return "Double.MAX_VALUE";
        }
        if (d == -Double.MAX_VALUE) {
            return "-Double.MAX_VALUE";
        }
        if (d == Double.MIN_VALUE) {
            return "Double.MIN_VALUE";
        }
        return Double.toString(d);
    }

    static Gen.Const doubleConst(Class<?> t, double d) {
        boolean f = Types.unbox(t) == float.class;
        Object v = f ? (Object) (float) d : (Object) d;
        return new Gen.Const(v, doubleExpr(d, f), camelNumber(doubleExpr(d, f).replace("f", "")));
    }

    static String charExpr(char c) {
        switch (c) {
            case '\'':
                return "'\\''";
            case '\\':
                return "'\\\\'";
            case '\n':
                return "'\\n'";
            case '\t':
                return "'\\t'";
            case '\r':
                return "'\\r'";
            default:
                if (c < 32 || c > 126) {
                    return String.format("'\\u%04x'", (int) c);
                }
                return "'" + c + "'";
        }
    }

    static String stringExpr(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"':
                    sb.append("\\\"");
                    break;
                case '\\':
                    sb.append("\\\\");
                    break;
                case '\n':
                    sb.append("\\n");
                    break;
                case '\t':
                    sb.append("\\t");
                    break;
                case '\r':
                    sb.append("\\r");
                    break;
                default:
                    if (c < 32 || c > 126) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
            }
        }
        return sb.append('"').toString();
    }

    /** The literal of a boxed primitive or String, or null. */
    static String literal(Object e) {
        Class<?> c = e.getClass();
        if (c == Integer.class || c == Long.class || c == Short.class || c == Byte.class) {
            return intConst(c, ((Number) e).longValue()).expr;
        }
        if (c == Double.class || c == Float.class) {
            return doubleExpr(((Number) e).doubleValue(), c == Float.class);
        }
        if (c == Boolean.class) {
            return e.toString();
        }
        if (c == Character.class) {
            return charExpr((Character) e);
        }
        if (c == String.class) {
            return stringExpr((String) e);
        }
        return null;
    }
}
