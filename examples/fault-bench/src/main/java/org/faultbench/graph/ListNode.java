package org.faultbench.graph;

/** A cell of a singly linked list of ints. */
public final class ListNode {

    private final int value;
    private ListNode next;

    public ListNode(int value) {
        this.value = value;
    }

    public int getValue() {
        return value;
    }

    public ListNode getNext() {
        return next;
    }

    public void setNext(ListNode next) {
        this.next = next;
    }

    @Override
    public String toString() {
        return "ListNode(" + value + ")";
    }
}
