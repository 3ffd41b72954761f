package lifecycle;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/**
 * A test whose code calls System.exit from a thread of its own while the test waits for it:
 * Surefire then reports that its forked JVM ended without saying goodbye, with or without jsched,
 * and jsched neither hangs nor calls it a bug. Runs only with -Dlifecycle.exit=true (it ends the
 * test JVM).
 */
class FrameworkExitTest {
  @Test
  void exitsTheTestJvm() throws Exception {
    assumeTrue(Boolean.getBoolean("lifecycle.exit"), "-Dlifecycle.exit=true runs it");
    Thread tool = new Thread(() -> System.exit(0));
    tool.start();
    tool.join();
  }
}
