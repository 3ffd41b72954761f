package lifecycle;

import junit.framework.TestCase;

/**
 * JUnit 3 (a TestCase, run by the vintage engine through JUnit 4's runner): each test method runs
 * as executions of its own, each on a new instance with its setUp and tearDown. An instance
 * shared by the executions would see setUp add up.
 */
public class FrameworkJUnit3Test extends TestCase {
  private int threads;

  @Override
  protected void setUp() {
    threads += 2;
  }

  public void testCorrectCountOnAFreshInstance() throws Exception {
    assertEquals(2, threads);
    assertEquals(threads, Twins.count(threads, true));
  }

  public void testBuggyCountOnAFreshInstance() throws Exception {
    assertEquals(threads, Twins.count(threads, false));
  }
}
