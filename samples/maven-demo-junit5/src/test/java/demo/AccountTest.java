package demo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Hides a lost update: two concurrent deposits, and the first one's read may be stale. */
class AccountTest {
  @Test
  void concurrentDepositsAreAllCounted() throws InterruptedException {
    Account account = new Account(100);
    Thread a = new Thread(() -> account.deposit(10));
    Thread b = new Thread(() -> account.deposit(20));
    a.start();
    b.start();
    a.join();
    b.join();
    assertEquals(130, account.balance());
  }
}
