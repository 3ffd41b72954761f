/**
 * main returns while threads are left behind. `waiter`: a thread that waits forever for a
 * notify nobody sends (a leaked thread: a finding, never a hang). `daemon`: a daemon thread
 * that keeps running (the JVM would stop it at exit; every execution ends cleanly).
 */
public class LeftBehind {
  public static void main(String[] args) {
    Object lock = new Object();
    Thread t;
    if (args.length > 0 && args[0].equals("daemon")) {
      t = new Thread(() -> {
        for (;;) {
          synchronized (lock) {
            lock.notifyAll();
          }
          Thread.yield();
        }
      });
      t.setDaemon(true);
    } else {
      t = new Thread(() -> {
        synchronized (lock) {
          try {
            for (;;) lock.wait();  // a loop: spurious wake-ups do not end the wait either
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          }
        }
      });
    }
    t.start();
    System.out.println("main returns");
  }
}
