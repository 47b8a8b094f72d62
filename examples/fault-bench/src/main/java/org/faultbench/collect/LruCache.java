package org.faultbench.collect;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;

/**
 * A cache of at most capacity entries that drops the least recently used one when full. The
 * map keeps insertion order, eldest first; a use moves an entry to the end.
 */
public class LruCache<K, V> {

    private final int capacity;
    private final LinkedHashMap<K, V> entries = new LinkedHashMap<>();
    private int hits;
    private int misses;

    public LruCache(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.capacity = capacity;
    }

    /** The value cached for key, or null; a hit makes key the most recently used. */
    public V get(K key) {
        V value = entries.remove(key);
        if (value == null) {
            misses++;
            return null;
        }
        entries.put(key, value);
        hits++;
        return value;
    }

    /** Caches value for key as the most recently used entry. */
    public void put(K key, V value) {
        Objects.requireNonNull(value, "value");
        entries.remove(key);
        entries.put(key, value);
        if (entries.size() > capacity) {
            K eldest = entries.keySet().iterator().next();
            entries.remove(eldest);
        }
    }

    public boolean containsKey(K key) {
        return entries.containsKey(key);
    }

    public int size() {
        return entries.size();
    }

    public int hits() {
        return hits;
    }

    public int misses() {
        return misses;
    }

    /** The keys, least recently used first. */
    public List<K> keys() {
        return new ArrayList<>(entries.keySet());
    }
}
