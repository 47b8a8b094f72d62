package org.faultbench.graph;

/** Algorithms over chains of ListNode. */
public final class LinkedLists {

    private LinkedLists() {
    }

    /** Whether following next from head ever comes back to a cell (Floyd's tortoise and hare). */
    public static boolean hasCycle(ListNode head) {
        ListNode slow = head;
        ListNode fast = head;
        while (fast != null && fast.getNext() != null) {
            slow = slow.getNext();
            fast = fast.getNext().getNext();
            if (slow == fast) {
                return true;
            }
        }
        return false;
    }

    /** Reverses the list in place and returns its new head (null for an empty list). */
    public static ListNode reverse(ListNode head) {
        ListNode previous = null;
        ListNode current = head;
        while (current != null) {
            ListNode following = current.getNext();
            current.setNext(previous);
            previous = current;
            current = following;
        }
        return previous;
    }
}
