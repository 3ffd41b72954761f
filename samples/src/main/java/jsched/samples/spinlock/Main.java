/*
 * spinlock: a thread frees a spin lock that it does not hold.
 *
 * Models: a spin lock on an AtomicBoolean (compare-and-set, waiting with Thread.onSpinWait()),
 * with tryLock() and no owner. Two threads each make two increments of a plain counter under it.
 * An increment first tries the lock once; if it is busy, the thread puts that increment off and
 * makes it at the end, waiting for the lock. To check the lock, a thread increments an
 * AtomicInteger `inside` on entering and decrements it before leaving, and expects to be alone.
 *
 * Bug: the put-off branch leaves with `continue` from inside the try block, so the finally block
 * still runs unlock() and frees the lock the other thread holds. The next increment then gets the
 * lock with the other thread inside. For PCT this takes one pre-emption (of the holder, inside):
 * a depth-2 bug.
 *
 * Shows as: AssertionError ("2 threads inside") in the thread that comes in second (jsched exit
 * status 3). Correct runs print "counter=4". (Thread 2 first does some local computation without
 * any synchronization, so in plain runs thread 1 is done before it starts.)
 */
package jsched.samples.spinlock;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

public class Main {
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
        try {
          if (!counter.lock.tryLock()) {
            putOff++;
            continue; // BUG: the finally block unlocks a lock this thread does not hold
          }
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

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps this thread behind the other one.
     */
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
