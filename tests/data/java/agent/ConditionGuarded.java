import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A consumer takes items from a one-slot buffer under a lock, awaiting its condition while the
 * slot is empty; the producer fills the slot under the lock and signals. Every access is
 * guarded: the consumer's read of the empty slot before it awaits is ordered before the
 * producer's write by the lock the await releases (inside the JDK, where no call on the lock is
 * seen), so there is no race to report.
 */
public class ConditionGuarded {
  static final ReentrantLock lock = new ReentrantLock();
  static final Condition filled = lock.newCondition();
  static final Condition emptied = lock.newCondition();
  static Object slot;

  public static void main(String[] args) throws InterruptedException {
    Thread consumer =
        new Thread(
            () -> {
              for (int i = 0; i < 3; i++) {
                lock.lock();
                try {
                  while (slot == null) filled.awaitUninterruptibly();
                  slot = null;
                  emptied.signal();
                } finally {
                  lock.unlock();
                }
              }
            });
    consumer.start();
    for (int i = 0; i < 3; i++) {
      lock.lock();
      try {
        while (slot != null) emptied.awaitUninterruptibly();
        slot = i;
        filled.signal();
      } finally {
        lock.unlock();
      }
    }
    consumer.join();
    System.out.println("done");
  }
}
