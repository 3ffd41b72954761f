package lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A slow test is not a hung one: the stress test runs longer than the hang window while its
 * threads keep making steps; its twin's thread spins on a field that is not volatile, with no
 * step at all (run these with a short timeout=, as the regression test does).
 */
class StressTest {
  @Test
  void correctManyBorrowsTakeTheirTime() throws Exception {
    TinyPool pool = new TinyPool(3);
    AtomicInteger done = new AtomicInteger();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 10; t++) {
      threads.add(new Thread(() -> {
        try {
          for (int i = 0; i < 40_000; i++) {
            pool.giveBack(pool.borrow(Duration.ofSeconds(10)));
            done.incrementAndGet();
          }
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }));
    }
    for (Thread th : threads) th.start();
    for (Thread th : threads) th.join();
    assertEquals(400_000, done.get());
    pool.close();
  }

  private boolean ready;  // not volatile: the spin below need never see it set

  @Test
  void buggySpinsOnAFieldThatIsNotVolatile() throws Exception {
    Thread setter = new Thread(() -> ready = true);
    Thread spinner = new Thread(() -> {
      while (!ready) {
        // nothing: no scheduling point, and the JIT may hoist the read
      }
    });
    spinner.start();
    setter.start();
    spinner.join();
    setter.join();
  }
}
