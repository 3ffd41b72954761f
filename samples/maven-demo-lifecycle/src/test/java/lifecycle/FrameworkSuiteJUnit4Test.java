package lifecycle;

import static org.junit.Assert.assertEquals;

import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Suite;

/** JUnit 4's Suite runner: the member classes' tests run under jsched like any other. */
@RunWith(Suite.class)
@Suite.SuiteClasses({FrameworkSuiteJUnit4Test.Locked.class, FrameworkSuiteJUnit4Test.Racy.class})
public class FrameworkSuiteJUnit4Test {
  public static class Locked {
    @Test
    public void correctCountInASuite() throws Exception {
      assertEquals(2, Twins.count(2, true));
    }
  }

  public static class Racy {
    @Test
    public void buggyCountInASuite() throws Exception {
      assertEquals(2, Twins.count(2, false));
    }
  }
}
