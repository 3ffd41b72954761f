// A correct handshake with wait/notifyAll, timed waits, join with timeout, interrupts and
// sleeps: must never produce a report, whatever the schedule.
public class WaitNotify {
  static final Object lock = new Object();
  static int stage;

  public static void main(String[] args) throws Exception {
    Thread waiter = new Thread(() -> {
      synchronized (lock) {
        while (stage == 0) {
          try { lock.wait(); } catch (InterruptedException e) { throw new AssertionError(e); }
        }
        stage = 2;
        lock.notifyAll();
      }
    });
    // Sleeps until interrupted. (A single long sleep would be a bug: under jsched, as in
    // principle on any JVM, a sleep may end before another thread takes its next step.)
    Thread sleeper = new Thread(() -> {
      try {
        while (true) Thread.sleep(1000);
      } catch (InterruptedException expected) {
        if (Thread.currentThread().isInterrupted()) throw new AssertionError("flag still set");
      }
    });
    waiter.start();
    sleeper.start();
    synchronized (lock) {
      stage = 1;
      lock.notifyAll();
      while (stage != 2) lock.wait(50);
    }
    sleeper.interrupt();
    sleeper.join();
    waiter.join(1000);
    if (waiter.isAlive()) {
      waiter.join();
    }
    Thread.currentThread().interrupt();
    if (!Thread.interrupted() || Thread.interrupted()) throw new AssertionError("interrupted()");
    System.out.println("stage " + stage);
  }
}
