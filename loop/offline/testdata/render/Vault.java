package org.acme;

/**
 * A fixture of an abstract class that neither the project nor a generated subclass can make:
 * no class extends it and its one constructor is private.
 */
public abstract class Vault {
    private Vault() {
    }

    /** What the vault holds. */
    protected abstract int held();

    /** Whether the vault holds more than limit. */
    public boolean over(int limit) {
        return held() > limit;
    }
}
