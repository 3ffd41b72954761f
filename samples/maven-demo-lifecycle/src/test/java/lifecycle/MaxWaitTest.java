package lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A borrow's maxWait expires in time, also while other threads keep working. */
class MaxWaitTest {
  /**
   * Four borrowers of a pool of two, each holding its object 100 ms, none waiting more than
   * 50 ms, and a thread computing for about 60 ms once they are queued: two borrows time out.
   */
  @Test
  void correctHalfTheBorrowersTimeOut() throws Exception {
    TinyPool pool = new TinyPool(2);
    AtomicInteger failed = new AtomicInteger();
    AtomicLong work = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      threads.add(new Thread(() -> {
        try {
          TinyPool.Item it = pool.borrow(Duration.ofMillis(50));
          Thread.sleep(100);
          pool.giveBack(it);
        } catch (NoSuchElementException e) {
          failed.incrementAndGet();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }));
    }
    for (Thread th : threads) th.start();
    Thread.sleep(1);  // the borrowers queue
    Thread busy = new Thread(() -> {
      for (int i = 0; i < 60_000; i++) work.incrementAndGet();
    });
    busy.start();
    for (Thread th : threads) th.join();
    busy.join();
    assertEquals(2, failed.get());
    pool.close();
  }

  /**
   * Waits 20 ms for an object another thread gives back after 30,000 operations (about 2 ms of
   * real time): fine unless the holder is slowed down a lot (a loaded machine, a GC pause). Under
   * jsched's default clock the holder's 30,000 steps take 30 ms, but the same schedule passes with
   * the steps a warm JVM takes, as a plain run does: not verified (skipped), not a finding. With
   * timeouts=early, which stands for the slowed-down holder, jsched finds it.
   */
  @Test
  void timingAssumesTheObjectComesBackInTime() throws Exception {
    TinyPool pool = new TinyPool(1);
    CountDownLatch held = new CountDownLatch(1);
    AtomicLong work = new AtomicLong();
    Thread holder = new Thread(() -> {
      try {
        TinyPool.Item it = pool.borrow(Duration.ZERO);
        held.countDown();
        for (int i = 0; i < 30_000; i++) work.incrementAndGet();
        pool.giveBack(it);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    holder.start();
    held.await();
    pool.giveBack(pool.borrow(Duration.ofMillis(20)));
    holder.join();
    pool.close();
  }
}
