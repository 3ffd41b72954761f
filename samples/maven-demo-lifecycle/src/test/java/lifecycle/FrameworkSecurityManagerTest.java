package lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.security.Permission;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A test that installs a SecurityManager to catch the System.exit of the code it tests (in a
 * thread of that code's own), as suites of command-line tools do. JDK 18 and later refuse to
 * install one unless -Djava.security.manager=allow, JDK 24 and later always: there the test
 * checks that refusal instead, as it would on a plain JVM.
 */
class FrameworkSecurityManagerTest {
  @Test
  @SuppressWarnings("removal")
  void correctExitCaughtBySecurityManager() throws Exception {
    SecurityManager before = System.getSecurityManager();
    try {
      System.setSecurityManager(
          new SecurityManager() {
            @Override
            public void checkExit(int status) {
              throw new SecurityException("exit " + status);
            }

            @Override
            public void checkPermission(Permission p) {}
          });
    } catch (UnsupportedOperationException refused) {
      assertEquals(true, Runtime.version().feature() >= 18, "refused on JDK 17: " + refused);
      return;
    }
    try {
      AtomicReference<String> caught = new AtomicReference<>();
      Thread tool =
          new Thread(
              () -> {
                try {
                  System.exit(3);
                } catch (SecurityException e) {
                  caught.set(e.getMessage());
                }
              });
      tool.start();
      tool.join();
      assertEquals("exit 3", caught.get());
    } finally {
      System.setSecurityManager(before);
    }
  }
}
