package lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * Temporary files under the java.io.tmpdir the build gives (-Djava.io.tmpdir in the argLine):
 * two threads each make one, in every execution, and they never collide, although jsched seeds
 * the JVM's randomness (temporary names are random) the same way in every execution.
 */
class FrameworkTmpdirTest {
  @Test
  void correctTemporaryFilesStayApartInTheGivenTmpdir() throws Exception {
    Path tmp = Paths.get(System.getProperty("java.io.tmpdir"));
    String expected = System.getProperty("lifecycle.tmpdir");
    if (expected != null) assertEquals(Paths.get(expected), tmp);
    Path[] made = new Path[2];
    Thread[] all = new Thread[2];
    for (int i = 0; i < 2; i++) {
      final int k = i;
      all[i] =
          new Thread(
              () -> {
                try {
                  made[k] =
                      k == 0
                          ? Files.createTempFile("lifecycle", ".tmp")
                          : File.createTempFile("lifecycle", ".tmp").toPath();
                } catch (Exception e) {
                  throw new AssertionError(e);
                }
              });
      all[i].start();
    }
    for (Thread t : all) t.join();
    assertNotEquals(made[0], made[1]);
    for (Path p : made) {
      assertEquals(tmp, p.getParent());
      assertTrue(Files.exists(p));
    }
  }
}
