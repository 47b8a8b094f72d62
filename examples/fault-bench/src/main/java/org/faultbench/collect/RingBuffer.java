package org.faultbench.collect;

import java.util.NoSuchElementException;

/** A fixed-capacity buffer of ints that overwrites its oldest value when full. */
public class RingBuffer {

    private final int[] items;
    private int head;
    private int size;

    public RingBuffer(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        items = new int[capacity];
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return items.length;
    }

    public boolean isFull() {
        return size == items.length;
    }

    /** Appends value; when the buffer is full the oldest value is dropped to make room. */
    public void add(int value) {
        int tail = (head + size) % items.length;
        items[tail] = value;
        if (size == items.length) {
            head = (head + 1) % items.length;
        } else {
            size++;
        }
    }

    /** The index-th oldest value: 0 is the oldest, size() - 1 the newest. */
    public int get(int index) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("index " + index + " of " + size);
        }
        return items[(head + index) % items.length];
    }

    /** Removes and returns the oldest value. */
    public int poll() {
        if (size == 0) {
            throw new NoSuchElementException("the buffer is empty");
        }
        int value = items[head];
        head = (head + 1) % items.length;
        size--;
        return value;
    }

    /** The values, oldest first. */
    public int[] toArray() {
        int[] out = new int[size];
        for (int i = 0; i < size; i++) {
            out[i] = items[(head + i) % items.length];
        }
        return out;
    }
}
