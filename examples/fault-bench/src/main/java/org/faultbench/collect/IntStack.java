package org.faultbench.collect;

import java.util.Arrays;
import java.util.NoSuchElementException;

/** A growable stack of ints without boxing. */
public class IntStack {

    private int[] data = new int[4];
    private int size;

    public void push(int value) {
        if (size == data.length) {
            data = Arrays.copyOf(data, data.length * 2);
        }
        data[size++] = value;
    }

    public int pop() {
        if (size == 0) {
            throw new NoSuchElementException("the stack is empty");
        }
        return data[--size];
    }

    public int peek() {
        if (size == 0) {
            throw new NoSuchElementException("the stack is empty");
        }
        return data[size - 1];
    }

    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    /** The values, bottom first. */
    public int[] toArray() {
        return Arrays.copyOf(data, size);
    }
}
