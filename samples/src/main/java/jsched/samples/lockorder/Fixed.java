/*
 * lockorder (correct variant): locks taken in one global order.
 *
 * Same program as Main, but transfer() locks the two accounts in the order of their ids
 * (lower id first), whichever direction the money flows. Both clerks lock a before b, so neither
 * can hold one lock while waiting for a lock that the other one holds.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "a=110 b=90 total=200".
 */
package jsched.samples.lockorder;

import java.util.concurrent.locks.ReentrantLock;

public class Fixed {
  static class Account {
    final int id;
    final String name;
    final ReentrantLock lock = new ReentrantLock();
    private int balance;

    Account(int id, String name, int balance) {
      this.id = id;
      this.name = name;
      this.balance = balance;
    }

    /** Caller holds lock. */
    int balance() {
      return balance;
    }

    /** Caller holds lock. */
    void add(int amount) {
      balance += amount;
    }
  }

  static void transfer(Account from, Account to, int amount) {
    Account first = from.id < to.id ? from : to;
    Account second = from.id < to.id ? to : from;
    first.lock.lock();
    try {
      second.lock.lock();
      try {
        from.add(-amount);
        to.add(amount);
      } finally {
        second.lock.unlock();
      }
    } finally {
      first.lock.unlock();
    }
  }

  static class Clerk extends Thread {
    private final Account from;
    private final Account to;
    private final int amount;
    private final boolean report;
    private long reportChecksum;
    private int peeked = -1;

    Clerk(String name, Account from, Account to, int amount, boolean report) {
      super(name);
      this.from = from;
      this.to = to;
      this.amount = amount;
      this.report = report;
    }

    @Override
    public void run() {
      if (report) {
        prepareReport();
        // a best-effort peek at the balance: skipped if the account is busy
        if (from.lock.tryLock()) {
          try {
            peeked = from.balance();
          } finally {
            from.lock.unlock();
          }
        }
      }
      transfer(from, to, amount);
    }

    /** Local preparation (a checksum) without any synchronization. */
    private void prepareReport() {
      long sum = 0;
      for (int i = 0; i < 200_000; i++) {
        sum = sum * 31 + i;
      }
      reportChecksum = sum;
    }
  }

  /** Reads a balance after the clerks are done; the lock must be free by then. */
  static int finalBalance(Account account) {
    if (!account.lock.tryLock()) {
      throw new AssertionError("the lock of account " + account.name + " is still held");
    }
    try {
      return account.balance();
    } finally {
      account.lock.unlock();
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Account a = new Account(1, "a", 100);
    Account b = new Account(2, "b", 100);
    Clerk clerk1 = new Clerk("clerk-1", a, b, 10, false);
    Clerk clerk2 = new Clerk("clerk-2", b, a, 20, true);
    clerk1.start();
    clerk2.start();
    clerk1.join();
    clerk2.join();
    int balanceA = finalBalance(a);
    int balanceB = finalBalance(b);
    if (balanceA != 110 || balanceB != 90) {
      throw new AssertionError(
          "balances a=" + balanceA + " b=" + balanceB + ", expected 110 and 90");
    }
    System.out.println("a=" + balanceA + " b=" + balanceB + " total=" + (balanceA + balanceB));
  }
}
