package lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Threads an execution starts belong to it: the static executor's worker runs its tasks under
 * control and is gone when the pool closes; a thread left waiting ends with the execution.
 */
class EvictorTest {
  private TinyPool pool;

  @AfterEach
  void tearDown() {
    if (pool != null) pool.close();
    assertNull(EvictionTimer.executor(), "the evictor's executor is still running");
  }

  @Test
  void correctEvictorRunsAndEndsWithThePool() throws Exception {
    pool = new TinyPool(2);
    pool.startEvictor(Duration.ofMillis(20), Duration.ofMillis(50));
    pool.giveBack(pool.borrow(Duration.ZERO));
    Thread.sleep(200);
    assertEquals(1, pool.destroyed());
    assertEquals(0, pool.idleCount());
  }

  @Test
  void correctThreadsLeftWaitingEndWithTheExecution() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    Thread waiter = new Thread(() -> {
      try {
        never.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    waiter.start();
    ExecutorService notShutDown = Executors.newSingleThreadExecutor();
    assertEquals(1, notShutDown.submit(() -> 1).get());
  }

  static final class Beats {
    volatile int count;
    final AtomicInteger byTask = new AtomicInteger();
  }

  /** The scheduled task and the test both count beats, without a lock. */
  @Test
  void buggyTaskAndTestCountWithoutALock() throws Exception {
    Beats beats = new Beats();
    ScheduledFuture<?> f = EvictionTimer.schedule(() -> {
      beats.count++;
      beats.byTask.incrementAndGet();
    }, 1);
    ScheduledThreadPoolExecutor executor = EvictionTimer.executor();
    for (int i = 0; i < 20; i++) {
      beats.count++;
      Thread.sleep(1);
    }
    EvictionTimer.cancel(f);
    executor.awaitTermination(1, TimeUnit.SECONDS);
    assertEquals(20 + beats.byTask.get(), beats.count);
  }
}
