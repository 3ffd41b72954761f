/*
 * lockorder: two transfers that take the same two ReentrantLocks in opposite orders.
 *
 * Models: two bank accounts (a and b, 100 each), each guarded by its own ReentrantLock. A transfer
 * locks the account it takes money from, then the account it pays into (lock() and unlock() in
 * try/finally). Clerk 1 transfers 10 from a to b; clerk 2 first peeks at b's balance for its
 * report (tryLock(), skipped if b is busy) and then transfers 20 from b to a. After joining both,
 * main checks the balances, and with tryLock() that no lock was left held.
 *
 * Bug: lock-order inversion. Clerk 1 locks a then b, clerk 2 locks b then a. When the scheduler
 * switches threads after clerk 1's a.lock() and before its b.lock(), and clerk 2 then locks b,
 * each clerk holds the lock the other one needs: clerk 1 waits for b, clerk 2 waits for a.
 *
 * Shows as: deadlock, both clerks parked in ReentrantLock.lock and main blocked in join (jsched
 * exit status 4). Correct runs print "a=110 b=90 total=200". (Clerk 1 is started first and clerk
 * 2 first prepares its report without any synchronization, so plain runs practically never
 * deadlock.)
 */
package jsched.samples.lockorder;

import java.util.concurrent.locks.ReentrantLock;

public class Main {
  static class Account {
    final String name;
    final ReentrantLock lock = new ReentrantLock();
    private int balance;

    Account(String name, int balance) {
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

  // BUG: the locks are taken in the order of the arguments, so two opposite transfers take them
  // in opposite orders.
  static void transfer(Account from, Account to, int amount) {
    from.lock.lock();
    try {
      to.lock.lock();
      try {
        from.add(-amount);
        to.add(amount);
      } finally {
        to.lock.unlock();
      }
    } finally {
      from.lock.unlock();
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

    /**
     * Local preparation (a checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps this clerk behind the other one.
     */
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
    Account a = new Account("a", 100);
    Account b = new Account("b", 100);
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
