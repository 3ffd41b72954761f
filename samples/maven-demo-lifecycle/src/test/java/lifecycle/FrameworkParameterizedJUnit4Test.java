package lifecycle;

import static org.junit.Assert.assertEquals;

import java.util.Arrays;
import java.util.Collection;
import org.junit.Test;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;
import org.junit.runners.Parameterized.Parameter;
import org.junit.runners.Parameterized.Parameters;

/** JUnit 4's Parameterized runner: each parameter's test runs as executions of its own. */
@RunWith(Parameterized.class)
public class FrameworkParameterizedJUnit4Test {
  @Parameters(name = "{0} threads")
  public static Collection<Object[]> threads() {
    return Arrays.asList(new Object[] {2}, new Object[] {3});
  }

  @Parameter public int threads;

  @Test
  public void correctCountForEachParameter() throws Exception {
    assertEquals(threads, Twins.count(threads, true));
  }

  @Test
  public void buggyCountForEachParameter() throws Exception {
    assertEquals(threads, Twins.count(threads, false));
  }
}
