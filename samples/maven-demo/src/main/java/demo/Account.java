package demo;

/** A bank account whose reads and writes are each synchronized. */
public class Account {
  private int balance;

  public Account(int balance) {
    this.balance = balance;
  }

  public synchronized int balance() {
    return balance;
  }

  private synchronized void setBalance(int value) {
    balance = value;
  }

  /**
   * The bug: the read and the write are each atomic, the deposit is not. Two deposits that
   * read the same balance lose one of them.
   */
  public void deposit(int amount) {
    int now = balance();
    setBalance(now + amount);
  }

  /** The fix: the whole read-modify-write under the lock. */
  public synchronized void depositAtomically(int amount) {
    balance += amount;
  }
}
