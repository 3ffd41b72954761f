import java.util.concurrent.locks.ReentrantLock;

/**
 * Two threads add to a counter only while they hold a java.util.concurrent lock: every access
 * is guarded, so there is no race to report. With argument "unguarded" each thread makes one
 * more write without the lock: a race on that field.
 */
public class LockGuarded {
  static final ReentrantLock lock = new ReentrantLock();
  static int count;
  static int unguarded;

  public static void main(String[] args) throws InterruptedException {
    final boolean race = args.length > 0 && args[0].equals("unguarded");
    Runnable r =
        () -> {
          for (int i = 0; i < 3; i++) {
            lock.lock();
            try {
              count++;
            } finally {
              lock.unlock();
            }
          }
          if (race) unguarded++;
        };
    Thread t = new Thread(r);
    t.start();
    r.run();
    t.join();
    if (count != 6) throw new AssertionError(count);
    System.out.println("guarded ok");
  }
}
