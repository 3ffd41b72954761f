// SyncCounter with a ReentrantLock: two threads doing N lock()/unlock() increments each, 4N
// scheduling points under jsched (a point before each j.u.c. call). Prints the elapsed time.
import java.util.concurrent.locks.ReentrantLock;

public class LockCounter {
  static int count;
  static final ReentrantLock lock = new ReentrantLock();

  public static void main(String[] args) throws Exception {
    final int n = Integer.parseInt(args[0]);
    Runnable body = () -> {
      for (int i = 0; i < n; i++) {
        lock.lock();
        try {
          count++;
        } finally {
          lock.unlock();
        }
      }
    };
    Thread a = new Thread(body), b = new Thread(body);
    long t0 = RealClock.nanos();
    a.start();
    b.start();
    a.join();
    b.join();
    long t1 = RealClock.nanos();
    if (count != 2 * n) throw new AssertionError(count);
    System.out.println("elapsed_ns " + (t1 - t0));
  }
}
