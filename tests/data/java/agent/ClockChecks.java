import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Calendar;
import java.util.Date;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

// Every timed operation of the JDK, checked against every clock: after waiting 100 ms (a sleep,
// or a timeout that expires with nobody to end it early), each clock has advanced at least
// 100 ms. Correct under the Java specification; a scheduler whose sleeps take no time while the
// clocks read real time fails it at once. A second thread reads the clocks meanwhile and checks
// they never go back.
public class ClockChecks {
  static final long MS = 100;

  // Kept in a field from class initialization on, as libraries keep theirs (commons-pool's
  // DefaultPooledObject): a clock obtained before the timed operation reads the same time.
  static final Clock STORED = Clock.systemUTC();
  static final InstantSource SOURCE = InstantSource.system();
  static final Clock TICK = Clock.tickMillis(ZoneOffset.UTC);
  static final String[] CLOCKS = {"nanoTime", "currentTimeMillis", "Instant.now",
      "Clock.systemDefaultZone", "a stored Clock.systemUTC", "InstantSource.system",
      "Clock.tickMillis", "Date", "Calendar.getInstance", "LocalDateTime.now"};

  // Every clock, in ms (nanoTime in ns).
  static long[] read() {
    return new long[] {System.nanoTime(), System.currentTimeMillis(),
        Instant.now().toEpochMilli(), Clock.systemDefaultZone().millis(),
        STORED.instant().toEpochMilli(), SOURCE.instant().toEpochMilli(),
        TICK.millis(), new Date().getTime(), Calendar.getInstance().getTimeInMillis(),
        LocalDateTime.now().toInstant(ZoneOffset.UTC).toEpochMilli()};  // differences only
  }

  static void check(String what, long[] before) {
    long[] after = read();
    StringBuilder all = new StringBuilder();
    boolean short_ = false;
    for (int k = 0; k < CLOCKS.length; k++) {
      long d = after[k] - before[k];
      long want = k == 0 ? MS * 1_000_000 : MS - (k == 6 ? 1 : 0);  // a tick clock truncates
      if (d < want) short_ = true;
      all.append(CLOCKS[k]).append(' ').append(d).append(k == 0 ? " ns, " : " ms, ");
    }
    if (short_) throw new AssertionError(what + ": " + all);
  }

  interface Timed {
    void run() throws Exception;
  }

  static void timed(String what, Timed op) throws Exception {
    long[] before = read();
    op.run();
    check(what, before);
  }

  public static void main(String[] args) throws Exception {
    Thread watcher = new Thread(() -> {
      long last = System.nanoTime();
      for (int k = 0; k < 20; k++) {
        long now = System.nanoTime();
        if (now < last) throw new AssertionError("nanoTime went back by " + (last - now));
        last = now;
        Thread.yield();
      }
    });
    watcher.start();
    Object monitor = new Object();
    ReentrantLock lock = new ReentrantLock();
    Condition never = lock.newCondition();
    // Waits until main lets it end, after the join below has timed out.
    boolean[] release = {false};
    Thread sleeper = new Thread(() -> {
      synchronized (release) {
        while (!release[0]) {
          try {
            release.wait();
          } catch (InterruptedException e) {
            return;
          }
        }
      }
    });
    sleeper.start();
    timed("Thread.sleep", () -> Thread.sleep(MS));
    timed("Object.wait", () -> {
      synchronized (monitor) {
        monitor.wait(MS);
      }
    });
    timed("Thread.join", () -> sleeper.join(MS));
    timed("LockSupport.parkNanos", () -> {
      long end = System.nanoTime() + MS * 1_000_000;
      while (System.nanoTime() < end) LockSupport.parkNanos(end - System.nanoTime());
    });
    timed("Condition.await", () -> {
      lock.lock();
      try {
        long left = TimeUnit.MILLISECONDS.toNanos(MS);
        while (left > 0) left = never.awaitNanos(left);
      } finally {
        lock.unlock();
      }
    });
    timed("BlockingQueue.poll", () -> {
      if (new ArrayBlockingQueue<String>(1).poll(MS, TimeUnit.MILLISECONDS) != null)
        throw new AssertionError("poll");
    });
    timed("Future.get", () -> {
      try {
        new CompletableFuture<String>().get(MS, TimeUnit.MILLISECONDS);
        throw new AssertionError("get");
      } catch (TimeoutException expected) {
        // the deadline passed
      }
    });
    ScheduledExecutorService ses = Executors.newSingleThreadScheduledExecutor();
    timed("ScheduledExecutorService", () -> ses.schedule(() -> 1, MS, TimeUnit.MILLISECONDS).get());
    ses.shutdown();
    synchronized (release) {
      release[0] = true;
      release.notifyAll();
    }
    sleeper.join();
    watcher.join();
    System.out.println("clocks agree");
  }
}
