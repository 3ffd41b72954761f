package demo;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/** The same scenario with the atomic deposit: correct under every interleaving. */
public class SafeAccountTest {
  @Test
  public void concurrentDepositsAreAllCounted() throws InterruptedException {
    Account account = new Account(100);
    Thread a = new Thread(() -> account.depositAtomically(10));
    Thread b = new Thread(() -> account.depositAtomically(20));
    a.start();
    b.start();
    a.join();
    b.join();
    assertEquals(130, account.balance());
  }
}
