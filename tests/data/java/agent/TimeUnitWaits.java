import java.util.concurrent.TimeUnit;

// TimeUnit's timedWait, timedJoin and sleep wait as Object.wait, Thread.join and Thread.sleep
// do: on the model (the waiter's monitor is released there too), on the virtual clock.
public class TimeUnitWaits {
  static final Object lock = new Object();
  static boolean done;

  public static void main(String[] args) throws Exception {
    Thread waiter = new Thread(() -> {
      synchronized (lock) {
        try {
          while (!done) TimeUnit.NANOSECONDS.timedWait(lock, TimeUnit.DAYS.toNanos(1));
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        }
      }
    });
    waiter.start();
    while (waiter.getState() != Thread.State.TIMED_WAITING) Thread.yield();
    synchronized (lock) {
      done = true;
      lock.notifyAll();
    }
    TimeUnit.DAYS.timedJoin(waiter, 1);
    long before = System.nanoTime();
    TimeUnit.SECONDS.sleep(2);
    boolean slept = System.nanoTime() - before >= TimeUnit.SECONDS.toNanos(2);
    System.out.println(waiter.isAlive() ? "still waiting" : slept ? "ok" : "woke early");
  }
}
