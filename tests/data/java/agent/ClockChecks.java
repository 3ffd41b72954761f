import java.time.Clock;
import java.time.Instant;
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

  static void check(String what, long t0Nanos, long t0Millis, long t0Instant, long t0Clock,
                    long t0Date) {
    long nanos = System.nanoTime() - t0Nanos;
    long millis = System.currentTimeMillis() - t0Millis;
    long instant = Instant.now().toEpochMilli() - t0Instant;
    long clock = Clock.systemUTC().millis() - t0Clock;
    long date = new Date().getTime() - t0Date;
    if (nanos < MS * 1_000_000 || millis < MS || instant < MS || clock < MS || date < MS)
      throw new AssertionError(what + ": nanoTime " + nanos + " ns, currentTimeMillis " + millis
          + ", Instant.now " + instant + ", Clock.systemUTC " + clock + ", Date " + date + " ms");
  }

  interface Timed {
    void run() throws Exception;
  }

  static void timed(String what, Timed op) throws Exception {
    long n = System.nanoTime(), m = System.currentTimeMillis(), i = Instant.now().toEpochMilli();
    long c = Clock.systemDefaultZone().millis(), d = new Date().getTime();
    op.run();
    check(what, n, m, i, c, d);
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
