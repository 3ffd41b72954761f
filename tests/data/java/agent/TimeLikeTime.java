import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

// Timing assumptions a real JVM keeps, which tests make (commons-pool's among them):
// - a thread started 10 ms before another reaches its wait first (sleep as a start-order hint);
// - a timed wait for a lock another thread holds while it keeps working times out (5 ms), and
//   one long enough for the holder's work (500 ms for 2 ms of work) gets the lock.
public class TimeLikeTime {
  static final Object lock = new Object();
  static final List<String> arrived = new ArrayList<>();

  static Thread waiter(String name) {
    return new Thread(() -> {
      synchronized (lock) {
        arrived.add(name);
        try {
          lock.wait();
        } catch (InterruptedException e) {
          throw new AssertionError(e);
        }
      }
    });
  }

  // tryLock(timeoutMs) on a lock another thread holds while it works: `steps` steps of work, or
  // until told to stop (steps < 0).
  static boolean tryWhileOthersWork(long timeoutMs, int steps) throws Exception {
    ReentrantLock busy = new ReentrantLock();
    CountDownLatch locked = new CountDownLatch(1);
    AtomicBoolean stop = new AtomicBoolean();
    AtomicInteger work = new AtomicInteger();
    Thread holder = new Thread(() -> {
      busy.lock();
      try {
        locked.countDown();
        for (int i = 0; steps < 0 ? !stop.get() : i < steps; i++) work.incrementAndGet();
      } finally {
        busy.unlock();
      }
    });
    holder.start();
    locked.await();
    boolean got = busy.tryLock(timeoutMs, TimeUnit.MILLISECONDS);
    if (got) busy.unlock();
    stop.set(true);
    holder.join();
    return got;
  }

  public static void main(String[] args) throws Exception {
    Thread first = waiter("first"), second = waiter("second");
    first.start();
    Thread.sleep(10);
    second.start();
    Thread.sleep(10);
    synchronized (lock) {
      if (!arrived.equals(List.of("first", "second"))) throw new AssertionError("order " + arrived);
      lock.notifyAll();
    }
    first.join();
    second.join();
    if (tryWhileOthersWork(5, -1))
      throw new AssertionError("a 5 ms tryLock got a lock held for ever");
    if (!tryWhileOthersWork(500, 2_000))
      throw new AssertionError("a 500 ms tryLock timed out on 2 ms of work");
    System.out.println("time ok");
  }
}
