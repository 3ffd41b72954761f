package lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A thread started in @BeforeAll (outside every execution: jsched does not control it) shares
 * a lock with the test's threads. While a test thread holds the lock, the outside thread waits
 * for it; it must never keep the test JVM from ending.
 */
class OutsideThreadTest {
  private static final Object registry = new Object();
  private static volatile boolean stop;
  private static volatile CountDownLatch request;
  private static Thread reporter;
  private static int reports;
  private int count;

  @BeforeAll
  static void startReporter() {
    reporter = new Thread(() -> {
      while (!stop) {
        synchronized (registry) {
          reports++;
          CountDownLatch r = request;
          if (r != null) r.countDown();
        }
        try {
          Thread.sleep(1);
        } catch (InterruptedException e) {
          return;
        }
      }
    }, "reporter");
    reporter.setDaemon(true);
    reporter.start();
  }

  @AfterAll
  static void stopReporter() throws InterruptedException {
    stop = true;
    reporter.join(5000);
  }

  @Test
  void correctSharesALockWithAThreadJUnitStarted() throws Exception {
    Runnable add = () -> {
      for (int i = 0; i < 50; i++) {
        synchronized (registry) {
          count++;
        }
      }
    };
    Thread a = new Thread(add);
    Thread b = new Thread(add);
    a.start();
    b.start();
    a.join();
    b.join();
    assertEquals(100, count);
  }

  @Test
  void correctWaitsForTheReporter() throws Exception {
    CountDownLatch answered = new CountDownLatch(1);
    request = answered;
    assertTrue(answered.await(5, TimeUnit.SECONDS), "no answer in 5 s");
  }

  /** Waits, holding the lock, for the reporter, which needs the lock to answer. */
  @Test
  void buggyWaitsForTheReporterHoldingItsLock() throws Exception {
    CountDownLatch answered = new CountDownLatch(1);
    synchronized (registry) {
      request = answered;
      assertTrue(answered.await(5, TimeUnit.SECONDS), "no answer in 5 s");
    }
  }
}
