/*
 * account (correct variant): money transfers between bank accounts.
 *
 * Same program as Main, but deposit and withdraw are synchronized methods, so each
 * read-modify-write of a balance is atomic. Money in transit between a withdraw and the matching
 * deposit is fine: main only checks after joining both clerks.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "A=120 B=65 C=115 total=300".
 */
package jsched.samples.account;

public class Fixed {
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

    synchronized void deposit(int amount) {
      balance += amount;
    }

    synchronized void withdraw(int amount) {
      balance -= amount;
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
