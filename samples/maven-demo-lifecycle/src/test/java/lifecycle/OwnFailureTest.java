package lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Tests that fail on a plain JVM too, whatever the interleaving: their failure is their own,
 * and jsched says so instead of "jsched found a bug".
 */
class OwnFailureTest {
  @Test
  void ownFailureWithoutThreads() {
    assertEquals(3, 1 + 1);
  }

  @Test
  void ownFailureWithThreads() throws Exception {
    AtomicInteger total = new AtomicInteger();
    Thread a = new Thread(() -> total.addAndGet(10));
    Thread b = new Thread(() -> total.addAndGet(20));
    a.start();
    b.start();
    a.join();
    b.join();
    assertEquals(40, total.get());
  }
}
