/*
 * spinlock (correct variant): take the lock with compare-and-set.
 *
 * Same program as Main, but lock() spins on compareAndSet(false, true): checking that the lock is
 * free and taking it are one atomic step, so only one thread can win it.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "counter=4".
 */
package jsched.samples.spinlock;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

public class Fixed {
  static class SpinLock {
    private final AtomicBoolean locked = new AtomicBoolean();

    void lock() {
      while (!locked.compareAndSet(false, true)) {
        Thread.onSpinWait();
      }
    }

    void unlock() {
      locked.set(false);
    }
  }

  static class Counter {
    final SpinLock lock = new SpinLock();
    final AtomicInteger inside = new AtomicInteger();
    int value; // guarded by lock
  }

  static class Incrementer extends Thread {
    private final Counter counter;
    private final boolean warmUp;
    private long setupChecksum;

    Incrementer(String name, Counter counter, boolean warmUp) {
      super(name);
      this.counter = counter;
      this.warmUp = warmUp;
    }

    @Override
    public void run() {
      if (warmUp) {
        setUp();
      }
      for (int i = 0; i < 2; i++) {
        counter.lock.lock();
        try {
          int inside = counter.inside.incrementAndGet();
          if (inside != 1) {
            throw new AssertionError(inside + " threads inside the spin lock");
          }
          counter.value++;
          counter.inside.decrementAndGet();
        } finally {
          counter.lock.unlock();
        }
      }
    }

    /** Local preparation (a table checksum) without any synchronization. */
    private void setUp() {
      long sum = 0;
      for (int i = 0; i < 200_000; i++) {
        sum = sum * 31 + i;
      }
      setupChecksum = sum;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Counter counter = new Counter();
    Incrementer thread1 = new Incrementer("thread-1", counter, false);
    Incrementer thread2 = new Incrementer("thread-2", counter, true);
    thread1.start();
    thread2.start();
    thread1.join();
    thread2.join();
    if (counter.value != 4) {
      throw new AssertionError("counter=" + counter.value + ", expected 4");
    }
    System.out.println("counter=" + counter.value);
  }
}
