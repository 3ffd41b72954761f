/*
 * spinlock (correct variant): only the holder unlocks.
 *
 * Same program as Main, but an increment that finds the lock busy is put off before the try
 * block, so the finally block (and its unlock) runs only after a successful tryLock().
 *
 * Expected jsched outcome: never fails (exit status 0); prints "counter=4".
 */
package jsched.samples.spinlock;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

public class Fixed {
  /** A spin lock on an AtomicBoolean. It has no owner: unlock() frees it, whoever calls it. */
  static class SpinLock {
    private final AtomicBoolean locked = new AtomicBoolean();

    void lock() {
      while (!locked.compareAndSet(false, true)) {
        Thread.onSpinWait();
      }
    }

    boolean tryLock() {
      return locked.compareAndSet(false, true);
    }

    void unlock() {
      locked.set(false);
    }
  }

  static class Counter {
    final SpinLock lock = new SpinLock();
    final AtomicInteger inside = new AtomicInteger();
    int value; // guarded by lock

    /** The guarded work; checks that the caller is alone. */
    void increment() {
      int in = inside.incrementAndGet();
      if (in != 1) {
        throw new AssertionError(in + " threads inside the spin lock");
      }
      value++;
      inside.decrementAndGet();
    }
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
      // Two increments; one that finds the lock busy is put off until the end.
      int putOff = 0;
      for (int i = 0; i < 2; i++) {
        if (!counter.lock.tryLock()) {
          putOff++;
          continue;
        }
        try {
          counter.increment();
        } finally {
          counter.lock.unlock();
        }
      }
      for (int i = 0; i < putOff; i++) {
        counter.lock.lock();
        try {
          counter.increment();
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
