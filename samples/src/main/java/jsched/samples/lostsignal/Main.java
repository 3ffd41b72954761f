/*
 * lostsignal: a Condition signal sent before anybody awaits it.
 *
 * Models: a worker computes a result (two additions into its own AtomicInteger) and announces it
 * through an event: a ReentrantLock, a Condition and a volatile `ready` flag. Under the lock, the
 * worker stores the result, sets ready and calls signal(). A waiter thread blocks until the event
 * is ready and then reads the result. The waiter is started first.
 *
 * Bug: the waiter reads the volatile ready flag without holding the lock and, if it is false,
 * takes the lock and calls await() once, without re-checking the flag under the lock. When the
 * scheduler switches threads after the waiter has read ready == false (at its lock() call) and the
 * worker locks, sets ready, signals and unlocks before the waiter gets the lock, the signal finds
 * nobody waiting and is lost: the waiter then awaits forever.
 *
 * Shows as: deadlock, the waiter parked in Condition.await and main blocked in join (jsched exit
 * status 4). Correct runs print "result=42". (The worker first does some local computation
 * without any synchronization, so in plain runs the waiter is already waiting when it signals.)
 */
package jsched.samples.lostsignal;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

public class Main {
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

    int result() {
      lock.lock();
      try {
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
      // BUG: the flag is checked without the lock, and await() is not in a loop that re-checks it.
      if (!event.ready) {
        event.lock.lock();
        try {
          event.readyCondition.await();
        } catch (InterruptedException e) {
          throw new IllegalStateException("interrupted", e);
        } finally {
          event.lock.unlock();
        }
      }
      seen = event.result();
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

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps the worker behind the waiter.
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
