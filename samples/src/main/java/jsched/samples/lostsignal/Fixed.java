/*
 * lostsignal (correct variant): awaiting a condition in a loop, under the lock.
 *
 * Same program as Main, but the waiter takes the lock first and then checks the flag and awaits
 * in a `while` loop. If the worker fired the event first, the waiter never awaits; if it awaits,
 * the worker cannot take the lock to set the flag and signal before await() has released it, so
 * the signal reaches the waiter. Spurious wakeups are harmless.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "result=42".
 */
package jsched.samples.lostsignal;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

public class Fixed {
  static class Event {
    final ReentrantLock lock = new ReentrantLock();
    final Condition readyCondition = lock.newCondition();
    volatile boolean ready;
    int result; // guarded by lock

    void fire(int value) {
      lock.lock();
      try {
        result = value;
        ready = true;
        readyCondition.signal();
      } finally {
        lock.unlock();
      }
    }

    int awaitResult() throws InterruptedException {
      lock.lock();
      try {
        while (!ready) {
          readyCondition.await();
        }
        return result;
      } finally {
        lock.unlock();
      }
    }
  }

  static class Waiter extends Thread {
    private final Event event;
    private int seen;

    Waiter(Event event) {
      super("waiter");
      this.event = event;
    }

    @Override
    public void run() {
      try {
        seen = event.awaitResult();
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
    }

    int seen() {
      return seen;
    }
  }

  static class Worker extends Thread {
    private final Event event;
    private long setupChecksum;

    Worker(Event event) {
      super("worker");
      this.event = event;
    }

    @Override
    public void run() {
      setUp();
      AtomicInteger accumulator = new AtomicInteger();
      accumulator.addAndGet(20);
      int value = accumulator.addAndGet(22);
      event.fire(value);
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
    Event event = new Event();
    Waiter waiter = new Waiter(event);
    Worker worker = new Worker(event);
    waiter.start();
    worker.start();
    worker.join();
    waiter.join();
    if (waiter.seen() != 42) {
      throw new AssertionError("waiter saw result " + waiter.seen() + ", expected 42");
    }
    System.out.println("result=" + waiter.seen());
  }
}
