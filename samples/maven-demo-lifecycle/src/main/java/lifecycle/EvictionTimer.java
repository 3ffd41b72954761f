package lifecycle;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One executor for the evictors of every pool, kept in a static field: created by the first
 * pool that needs it, shut down when the last one cancels (as Apache Commons Pool does).
 */
public final class EvictionTimer {
  private static ScheduledThreadPoolExecutor executor;
  private static int users;

  private EvictionTimer() {}

  static synchronized ScheduledFuture<?> schedule(Runnable task, long periodMillis) {
    if (executor == null) {
      executor = new ScheduledThreadPoolExecutor(1);
      executor.setRemoveOnCancelPolicy(true);
    }
    users++;
    return executor.scheduleWithFixedDelay(task, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
  }

  static synchronized void cancel(ScheduledFuture<?> future) {
    future.cancel(false);
    if (--users == 0) {
      executor.shutdown();
      executor = null;
    }
  }

  /** The executor, while some pool's evictor is scheduled: tests check it is gone. */
  public static synchronized ScheduledThreadPoolExecutor executor() {
    return executor;
  }
}
