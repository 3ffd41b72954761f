package lifecycle;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An exception a worker thread lets escape. A test may throw one on purpose (to see an executor
 * survive a task that fails): the JVM prints it, and the test passes, on a plain JVM and under
 * jsched. One that only some interleavings throw is a bug jsched finds.
 */
class FrameworkWorkerErrorTest {
  /** The task's exception ends its worker thread; the executor starts another for the next. */
  @Test
  void correctTaskThrowsOnPurpose() throws Exception {
    ExecutorService executor = Executors.newSingleThreadExecutor();
    CountDownLatch next = new CountDownLatch(1);
    executor.execute(
        () -> {
          throw new IllegalStateException("on purpose");
        });
    executor.execute(next::countDown);
    assertTrue(next.await(10, TimeUnit.SECONDS));
    executor.shutdown();
  }

  /** Each worker checks the count both added: a lost update makes one throw. */
  @Test
  void buggyWorkerThrowsOnALostUpdate() throws Exception {
    Twins.Counter c = new Twins.Counter();
    CountDownLatch both = new CountDownLatch(2);
    Twins.inThreads(
        2,
        () -> {
          c.value++;
          both.countDown();
          try {
            both.await();
          } catch (InterruptedException e) {
            return;
          }
          if (c.value != 2) throw new IllegalStateException("lost update: " + c.value);
        });
  }
}
