/*
 * account: money transfers between bank accounts.
 *
 * Models: three accounts (A, B, C; 100 each) and two clerk threads, each doing two transfers.
 * Every access to a balance goes through a synchronized getter or setter, so no single read or
 * write is ever racy.
 *
 * Bug: Account.deposit and Account.withdraw are read-modify-write sequences made of two
 * separate synchronized calls (getBalance, then setBalance). When the scheduler switches threads
 * right after the read (at the monitorexit of getBalance) and the other clerk updates the same
 * account before the first clerk writes back, that update is overwritten: money is lost or
 * created.
 *
 * Shows as: main joins both clerks and compares the balances (and the total, 300) with the
 * expected ones -> AssertionError thrown by main (jsched exit status 3). Correct runs print
 * "A=120 B=65 C=115 total=300".
 */
package jsched.samples.account;

public class Main {
  static class Account {
    private final String name;
    private int balance;

    Account(String name, int balance) {
      this.name = name;
      this.balance = balance;
    }

    synchronized int getBalance() {
      return balance;
    }

    synchronized void setBalance(int balance) {
      this.balance = balance;
    }

    // BUG: two synchronized calls, not one atomic update.
    void deposit(int amount) {
      int current = getBalance();
      setBalance(current + amount);
    }

    // BUG: same as deposit.
    void withdraw(int amount) {
      int current = getBalance();
      setBalance(current - amount);
    }

    String name() {
      return name;
    }
  }

  static class Clerk extends Thread {
    private final Account[] from;
    private final Account[] to;
    private final int[] amounts;

    Clerk(String name, Account[] from, Account[] to, int[] amounts) {
      super(name);
      this.from = from;
      this.to = to;
      this.amounts = amounts;
    }

    @Override
    public void run() {
      for (int i = 0; i < amounts.length; i++) {
        from[i].withdraw(amounts[i]);
        to[i].deposit(amounts[i]);
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Account a = new Account("A", 100);
    Account b = new Account("B", 100);
    Account c = new Account("C", 100);

    // clerk 1: A->B 10, B->C 20; clerk 2: B->A 30, C->B 5
    Clerk clerk1 = new Clerk("clerk-1", new Account[] {a, b}, new Account[] {b, c}, new int[] {10, 20});
    Clerk clerk2 = new Clerk("clerk-2", new Account[] {b, c}, new Account[] {a, b}, new int[] {30, 5});
    clerk1.start();
    clerk2.start();
    clerk1.join();
    clerk2.join();

    int total = a.getBalance() + b.getBalance() + c.getBalance();
    String state = a.name() + "=" + a.getBalance() + " " + b.name() + "=" + b.getBalance() + " "
        + c.name() + "=" + c.getBalance() + " total=" + total;
    if (a.getBalance() != 120 || b.getBalance() != 65 || c.getBalance() != 115 || total != 300) {
      throw new AssertionError("lost update: expected A=120 B=65 C=115 total=300, got " + state);
    }
    System.out.println(state);
  }
}
