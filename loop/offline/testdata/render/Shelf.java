package org.acme;

/**
 * A fixture of a generic abstract class whose project subclass binds its type parameter
 * (Words extends Shelf<String>): the method's K argument is a String, the type the subclass
 * takes (an Integer would fail its cast before the method's own logic ran).
 */
public abstract class Shelf<K> {
    /** How wide a key is: each subclass says. */
    protected abstract int width(K key);

    /** The slots a key takes: two for a key wider than three, else one. */
    public int slots(K key) {
        int w = width(key);
        if (w > 3) {
            return 2;
        }
        return 1;
    }

    /** The project's one subclass: keys are words. */
    public static final class Words extends Shelf<String> {
        @Override
        protected int width(String key) {
            return key.length();
        }
    }
}
