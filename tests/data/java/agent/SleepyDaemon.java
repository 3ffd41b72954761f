// A daemon polls a counter under a lock and sleeps, for ever; main does a little work under the
// same lock and ends. Correct: the JVM exits when main ends. Under PCT, a daemon with the
// higher priority that never gave way starved main: a false hang.
public class SleepyDaemon {
  static final Object lock = new Object();
  static int ticks;

  public static void main(String[] args) {
    Thread daemon = new Thread(() -> {
      while (true) {
        synchronized (lock) {
          ticks++;
        }
        try {
          Thread.sleep(10);
        } catch (InterruptedException e) {
          return;
        }
      }
    });
    daemon.setDaemon(true);
    daemon.start();
    for (int i = 0; i < 3; i++) {
      synchronized (lock) {
        ticks++;
      }
    }
    System.out.println("done");
  }
}
