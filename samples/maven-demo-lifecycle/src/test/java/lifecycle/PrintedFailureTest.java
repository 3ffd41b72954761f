package lifecycle;

import org.junit.jupiter.api.Test;

/**
 * Tests written as harnesses from before JUnit: they catch their own failure, print it and
 * pass. With bug-output=FAILED in jsched's agent options, such a printed line is jsched's
 * finding; without it these tests pass whatever happens.
 */
class PrintedFailureTest {
  private volatile int count;

  @Test
  void printsFailureOfALostUpdate() throws Exception {
    count = 0;
    Thread a = new Thread(this::bump);
    Thread b = new Thread(this::bump);
    a.start();
    b.start();
    a.join();
    b.join();
    System.out.println(count == 2 ? "passed: count 2" : "FAILED: lost update, count " + count);
  }

  @Test
  void printsNothingWrongUnderALock() throws Exception {
    count = 0;
    Thread a = new Thread(this::bumpLocked);
    Thread b = new Thread(this::bumpLocked);
    a.start();
    b.start();
    a.join();
    b.join();
    System.out.println(count == 2 ? "passed: count 2" : "FAILED: lost update, count " + count);
  }

  private void bump() {
    int v = count;
    count = v + 1;
  }

  private synchronized void bumpLocked() {
    bump();
  }
}
