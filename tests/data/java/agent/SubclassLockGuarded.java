import java.util.concurrent.locks.ReentrantLock;

/**
 * Two threads add to a counter only while they hold a lock of the program's own class, which
 * extends ReentrantLock (as commons-pool2's InterruptibleReentrantLock does): every access is
 * guarded, so there is no race to report. With argument "names" the lock is a class of the
 * program that only has methods named lock() and unlock(): nothing orders the additions, a race
 * on the counter.
 */
public class SubclassLockGuarded {
  static final class GuardLock extends ReentrantLock {
    private static final long serialVersionUID = 1L;
  }

  static class Lockish {
    void lock() {}

    void unlock() {}
  }

  static final class NamesOnly extends Lockish {}

  static int count;

  public static void main(String[] args) throws InterruptedException {
    final boolean names = args.length > 0 && args[0].equals("names");
    final GuardLock lock = new GuardLock();
    final NamesOnly fake = new NamesOnly();
    Runnable r =
        () -> {
          for (int i = 0; i < 3; i++) {
            if (names) {
              fake.lock();
              count++;
              fake.unlock();
            } else {
              lock.lock();
              try {
                count++;
              } finally {
                lock.unlock();
              }
            }
          }
        };
    Thread t = new Thread(r);
    t.start();
    r.run();
    t.join();
    if (!names && count != 6) throw new AssertionError(count);
    System.out.println("done");
  }
}
