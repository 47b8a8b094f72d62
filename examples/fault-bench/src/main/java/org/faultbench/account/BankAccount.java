package org.faultbench.account;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A current account in cents with an agreed overdraft. Every movement is kept in a statement,
 * newest last.
 */
public class BankAccount {

    private final String owner;
    private final long overdraftLimit;
    private long balance;
    private final List<String> statement = new ArrayList<>();

    public BankAccount(String owner, long overdraftLimit) {
        if (owner == null || owner.isBlank()) {
            throw new IllegalArgumentException("owner must not be blank");
        }
        if (overdraftLimit < 0) {
            throw new IllegalArgumentException("overdraft limit must not be negative: " + overdraftLimit);
        }
        this.owner = owner;
        this.overdraftLimit = overdraftLimit;
    }

    public String getOwner() {
        return owner;
    }

    public long getBalance() {
        return balance;
    }

    public long getOverdraftLimit() {
        return overdraftLimit;
    }

    /** What the holder can still take out: the balance plus the unused overdraft. */
    public long available() {
        return balance + overdraftLimit;
    }

    public List<String> getStatement() {
        return Collections.unmodifiableList(statement);
    }

    public void deposit(long amount) {
        if (amount <= 0) {
            throw new IllegalArgumentException("deposit must be positive: " + amount);
        }
        balance += amount;
        statement.add("deposit " + amount);
    }

    /** Takes amount out; refuses it when it would go past the overdraft. */
    public void withdraw(long amount) {
        if (amount <= 0) {
            throw new IllegalArgumentException("withdrawal must be positive: " + amount);
        }
        if (amount > available()) {
            throw new IllegalStateException("insufficient funds: " + available() + " available, " + amount + " asked");
        }
        balance -= amount;
        statement.add("withdraw " + amount);
    }

    /** Moves amount to another account: a withdrawal here and a deposit there. */
    public void transferTo(BankAccount target, long amount) {
        if (target == null) {
            throw new IllegalArgumentException("no target account");
        }
        if (target == this) {
            throw new IllegalArgumentException("cannot transfer to the same account");
        }
        withdraw(amount);
        target.deposit(amount);
    }
}
