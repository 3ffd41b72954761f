package lifecycle;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import org.junit.jupiter.api.Test;

/** Every clock reads the same time, wherever it was obtained. */
class ClockTest {
  private static final Clock TICKING = Clock.tick(Clock.systemUTC(), Duration.ofMillis(10));
  private final InstantSource source = InstantSource.system();

  private static void atLeast(long millis, Duration d, String what) {
    assertTrue(d.toMillis() >= millis && d.toMillis() < millis + 1000, what + ": " + d);
  }

  @Test
  void correctClocksKeptInFieldsFollowSleep() throws Exception {
    TinyPool pool = new TinyPool(1);
    TinyPool.Item it = pool.borrow(Duration.ZERO);
    pool.giveBack(it);
    Instant tick0 = TICKING.instant();
    Instant source0 = source.instant();
    long nano0 = System.nanoTime();
    Thread.sleep(125);
    atLeast(125, pool.idleTime(it), "the pool's Clock.systemUTC()");
    atLeast(110, Duration.between(tick0, TICKING.instant()), "Clock.tick");
    atLeast(125, Duration.between(source0, source.instant()), "InstantSource.system()");
    atLeast(125, Duration.ofNanos(System.nanoTime() - nano0), "System.nanoTime()");
  }

  /** Reads the clock, then the return time another thread may have set meanwhile. */
  @Test
  void buggyIdleTimeIsNeverNegative() throws Exception {
    TinyPool pool = new TinyPool(1);
    TinyPool.Item it = pool.borrow(Duration.ZERO);
    pool.giveBack(it);
    Clock clock = Clock.systemUTC();
    Thread user = new Thread(() -> {
      try {
        for (int i = 0; i < 3; i++) pool.giveBack(pool.borrow(Duration.ofSeconds(1)));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    user.start();
    boolean negative = false;
    for (int i = 0; i < 3; i++) {
      Instant now = clock.instant();
      negative |= Duration.between(it.lastReturn, now).isNegative();
    }
    user.join();
    assertFalse(negative, "negative idle time");
  }
}
