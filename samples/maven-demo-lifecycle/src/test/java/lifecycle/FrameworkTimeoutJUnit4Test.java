package lifecycle;

import static org.junit.Assert.assertEquals;

import org.junit.Test;

/**
 * JUnit 4's @Test(timeout=...) runs the body in a thread of its own ("Time-limited test") while
 * the test's thread waits for it with a timed get: both are threads of the execution, and the
 * timeout is on the virtual clock, so it fires exactly when it would on a real one.
 */
public class FrameworkTimeoutJUnit4Test {
  @Test(timeout = 10_000)
  public void correctCountWithinItsTimeout() throws Exception {
    assertEquals(2, Twins.count(2, true));
  }

  @Test(timeout = 10_000)
  public void buggyCountWithinItsTimeout() throws Exception {
    assertEquals(2, Twins.count(2, false));
  }

  /** Fails with TestTimedOutException after 200 ms, on a plain JVM too. */
  @Test(timeout = 200)
  public void ownFailureSleepsPastItsTimeout() throws Exception {
    Thread.sleep(60_000);
  }
}
