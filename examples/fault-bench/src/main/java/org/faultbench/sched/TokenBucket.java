package org.faultbench.sched;

/**
 * A rate limiter: a bucket of at most capacity tokens that refills continuously at
 * refillPerSecond; each request takes one token. Time is passed in, in milliseconds.
 */
public class TokenBucket {

    private final int capacity;
    private final double refillPerSecond;
    private double tokens;
    private long lastRefillMillis;

    public TokenBucket(int capacity, double refillPerSecond, long nowMillis) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        if (refillPerSecond < 0) {
            throw new IllegalArgumentException("refill rate must not be negative: " + refillPerSecond);
        }
        this.capacity = capacity;
        this.refillPerSecond = refillPerSecond;
        this.tokens = capacity;
        this.lastRefillMillis = nowMillis;
    }

    /** The whole tokens available now, without taking one. */
    public int available() {
        return (int) tokens;
    }

    /** Takes one token if there is one at nowMillis. */
    public boolean tryAcquire(long nowMillis) {
        long elapsed = Math.max(0, nowMillis - lastRefillMillis);
        tokens = Math.min(capacity, tokens + elapsed * refillPerSecond / 1000.0);
        lastRefillMillis = Math.max(lastRefillMillis, nowMillis);
        if (tokens < 1) {
            return false;
        }
        tokens -= 1;
        return true;
    }
}
