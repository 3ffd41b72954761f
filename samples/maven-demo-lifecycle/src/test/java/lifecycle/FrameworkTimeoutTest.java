package lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;

/**
 * JUnit 5's timeouts: @Timeout (a watcher thread interrupts the test's thread; or, in
 * SEPARATE_THREAD mode, the body runs in a thread of its own) and assertTimeoutPreemptively
 * (the body runs in an executor's thread, abandoned when its time is up). Their timeouts are on
 * the virtual clock and fire exactly when they would on a real one.
 */
class FrameworkTimeoutTest {
  @Test
  @Timeout(10)
  void correctCountWithinItsTimeout() throws Exception {
    assertEquals(2, Twins.count(2, true));
  }

  @Test
  @Timeout(10)
  void buggyCountWithinItsTimeout() throws Exception {
    assertEquals(2, Twins.count(2, false));
  }

  @Test
  @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
  void correctCountInASeparateTimeoutThread() throws Exception {
    assertEquals(2, Twins.count(2, true));
  }

  @Test
  @Timeout(value = 10, threadMode = ThreadMode.SEPARATE_THREAD)
  void buggyCountInASeparateTimeoutThread() throws Exception {
    assertEquals(2, Twins.count(2, false));
  }

  @Test
  void correctCountInAssertTimeoutPreemptively() {
    assertEquals(2, assertTimeoutPreemptively(Duration.ofSeconds(10), () -> Twins.count(2, true)));
  }

  @Test
  void buggyCountInAssertTimeoutPreemptively() {
    assertEquals(2, assertTimeoutPreemptively(Duration.ofSeconds(10), () -> Twins.count(2, false)));
  }

  static volatile int steps;

  /**
   * Millions of scheduling points within a 1 s timeout: a few milliseconds on a plain JVM, but
   * more than a second on jsched's virtual clock, which counts each step as 1 us. jsched leaves
   * it not verified (skipped), not failed.
   */
  @Test
  @Timeout(value = 1000, unit = TimeUnit.MILLISECONDS)
  void stepsPastATightTimeout() throws Exception {
    Runnable add =
        () -> {
          for (int i = 0; i < 1_500_000; i++) steps++;
        };
    Twins.inThreads(2, add);
  }

  /**
   * A timed join, as JSR-166's tests wait for their threads (join(timeout), then fail if still
   * alive): 1.6 million steps, a few milliseconds on a plain JVM, 1.6 s on jsched's clock, past
   * the join's 200 ms in the executions where the joining thread runs first once it may. The
   * failure comes from jsched's clock, not from the program: not verified (skipped), not failed.
   */
  @Test
  void stepsPastATimedJoin() throws Exception {
    Runnable add =
        () -> {
          for (int i = 0; i < 400_000; i++) steps++;
        };
    Thread a = new Thread(add);
    Thread b = new Thread(add);
    a.start();
    b.start();
    a.join(200);
    b.join(200);
    assertFalse(a.isAlive() || b.isAlive(), "timed out");
  }

  /**
   * A test that sleeps while its workers work, then checks what they did (as pool tests measure
   * their pool under load every 50 ms): 150,000 steps, a few milliseconds on a plain JVM, 150 ms
   * on jsched's clock, past the 100 ms sleep. Not verified (skipped), not failed.
   */
  @Test
  void stepsPastASleepThatMeasuresThem() throws Exception {
    Runnable add =
        () -> {
          for (int i = 0; i < 75_000; i++) steps++;
        };
    Thread a = new Thread(add);
    Thread b = new Thread(add);
    a.start();
    b.start();
    Thread.sleep(100);
    assertFalse(a.isAlive() || b.isAlive(), "still working");
    a.join();
    b.join();
  }

  /** Interrupted and failed after 200 ms, on a plain JVM too. */
  @Test
  @Timeout(value = 200, unit = TimeUnit.MILLISECONDS)
  void ownFailureSleepsPastItsTimeout() throws Exception {
    Thread.sleep(60_000);
  }

  /** Abandoned and failed after 200 ms, on a plain JVM too. */
  @Test
  void ownFailureSleepsPastAssertTimeoutPreemptively() {
    assertTimeoutPreemptively(Duration.ofMillis(200), () -> Thread.sleep(60_000));
  }
}
