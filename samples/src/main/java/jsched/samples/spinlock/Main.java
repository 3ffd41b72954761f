/*
 * spinlock: a spin lock that checks and then sets, instead of compare-and-set.
 *
 * Models: a spin lock on an AtomicBoolean, waiting with Thread.onSpinWait(). Two threads each
 * enter the lock twice and increment a plain counter inside. To check the lock, a thread
 * increments an AtomicInteger `inside` on entering and decrements it before leaving, and expects
 * to be alone.
 *
 * Bug: lock() spins while the flag is set and then sets it with a separate set(true), a
 * check-then-act. When the scheduler switches threads after one thread's get() returned false
 * (at its set(true) call) and the other thread also finds the flag clear, both enter.
 *
 * Shows as: AssertionError ("2 threads inside") in the thread that finds the other one inside
 * (jsched exit status 3). Correct runs print "counter=4". (Thread 2 first does some local
 * computation without any synchronization, so in plain runs thread 1 is done before it starts.)
 */
package jsched.samples.spinlock;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

public class Main {
  static class SpinLock {
    private final AtomicBoolean locked = new AtomicBoolean();

    void lock() {
      // BUG: check-then-act; two threads can both see the lock free and both take it.
      while (locked.get()) {
        Thread.onSpinWait();
      }
      locked.set(true);
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
