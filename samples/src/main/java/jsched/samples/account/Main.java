/*
 * account: money transfers between bank accounts.
 *
 * Models: three accounts (A, B, C; 100 each) and money moving round the cycle: a clerk thread
 * transfers A->B 10 and then B->C 20 while main transfers C->A 30. Every access to a balance goes
 * through a synchronized getter or setter, so no single read or write is ever racy.
 *
 * Bug: Account.deposit and Account.withdraw are read-modify-write sequences made of two
 * separate synchronized calls (getBalance, then setBalance). When the scheduler switches threads
 * right after the read (at the monitorexit of getBalance) and the other thread updates the same
 * account before the first one writes back, that update is overwritten: money is lost or created.
 *
 * Shows as: main joins the clerk and compares the balances with the ones a sequential run gives
 * -> AssertionError thrown by main (jsched exit status 3). Correct runs print
 * "A=120 B=90 C=90 total=300".
 */
package jsched.samples.account;

import java.util.Arrays;
import java.util.List;

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

    // the clerk thread: A->B 10, then B->C 20; main, meanwhile: C->A 30
    Clerk clerk =
        new Clerk("clerk", new Account[] {a, b}, new Account[] {b, c}, new int[] {10, 20});
    clerk.start();
    c.withdraw(30);
    a.deposit(30);
    clerk.join();

    Account[] accounts = {a, b, c};
    int[] expected = expectedBalances(accounts, 100, clerk);
    expected[2] -= 30; // main's transfer C->A
    expected[0] += 30;
    StringBuilder state = new StringBuilder();
    int total = 0;
    boolean ok = true;
    for (int i = 0; i < accounts.length; i++) {
      int balance = accounts[i].getBalance();
      total += balance;
      ok &= balance == expected[i];
      state.append(accounts[i].name()).append('=').append(balance).append(' ');
    }
    state.append("total=").append(total);
    if (!ok) {
      throw new AssertionError(
          "lost update: balances " + state + " differ from the sequential result");
    }
    System.out.println(state);
  }

  /** The balances after all transfers, computed sequentially (transfers commute). */
  static int[] expectedBalances(Account[] accounts, int initial, Clerk... clerks) {
    int[] balances = new int[accounts.length];
    Arrays.fill(balances, initial);
    List<Account> list = Arrays.asList(accounts);
    for (Clerk clerk : clerks) {
      for (int i = 0; i < clerk.amounts.length; i++) {
        balances[list.indexOf(clerk.from[i])] -= clerk.amounts[i];
        balances[list.indexOf(clerk.to[i])] += clerk.amounts[i];
      }
    }
    return balances;
  }
}
