package lifecycle;

import static org.junit.Assert.assertEquals;

import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.Timeout;

/** JUnit 4's Timeout rule: the body runs in a thread of its own, as with @Test(timeout=...). */
public class FrameworkTimeoutRuleJUnit4Test {
  @Rule public Timeout timeout = Timeout.seconds(10);

  @Test
  public void correctCountUnderATimeoutRule() throws Exception {
    assertEquals(2, Twins.count(2, true));
  }

  @Test
  public void buggyCountUnderATimeoutRule() throws Exception {
    assertEquals(2, Twins.count(2, false));
  }
}
