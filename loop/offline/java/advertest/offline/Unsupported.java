package advertest.offline;

/** Why the explorer cannot drive a method: it writes one "unsupported" line and no inputs. */
class Unsupported extends Exception {
    private static final long serialVersionUID = 1L;

    Unsupported(String why) {
        super(why, null, false, false);
    }
}
