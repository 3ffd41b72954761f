/*
 * spuriouswake: waits guarded by `if` instead of `while`, found out by spurious wake-ups.
 *
 * Models: a worker hands two messages to two waiting threads: "hello" through a box guarded by
 * its monitor (wait/notifyAll) and "world" through a slot guarded by a ReentrantLock and its
 * Condition (await/signalAll). Each waiter takes the lock, and if the message is not ready, waits
 * once; the worker stores the message and sets ready under the same lock before it notifies. The
 * waiters are started first; the worker first does some local computation.
 *
 * Bug: both waiters wait with `if (!ready) wait();` (and `if (!ready) filled.await();`) instead of
 * a `while` loop. Without spurious wake-ups this is correct: the check is made under the lock, the
 * only notification comes after ready has been set under that lock, and nothing else notifies
 * these monitors. But Object.wait and Condition.await may return spuriously (JLS 17.2.1, the
 * Condition javadoc), and then the waiter goes on with a message that is not there. A spurious
 * wake-up is the only way this program can fail: a scheduler finds the bug only if it makes
 * spurious wake-ups one of its choices.
 *
 * Shows as: NullPointerException escaping a waiter thread (jsched exit status 3). Correct runs
 * print "monitor waiter got hello, condition waiter got world".
 */
package jsched.samples.spuriouswake;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

public class Main {
  /** A one-shot box guarded by its own monitor. */
  static class Box {
    private boolean ready;
    private String message;

    synchronized void put(String message) {
      this.message = message;
      ready = true;
      notifyAll();
    }

    synchronized String take() throws InterruptedException {
      if (!ready) { // BUG: must be `while`; a spurious wake-up returns with no message
        wait();
      }
      return message;
    }
  }

  /** A one-shot slot guarded by a ReentrantLock and a Condition. */
  static class Slot {
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition filled = lock.newCondition();
    private boolean ready;
    private String message;

    void put(String message) {
      lock.lock();
      try {
        this.message = message;
        ready = true;
        filled.signalAll();
      } finally {
        lock.unlock();
      }
    }

    String take() throws InterruptedException {
      lock.lock();
      try {
        if (!ready) { // BUG: must be `while`; a spurious wake-up returns with no message
          filled.await();
        }
        return message;
      } finally {
        lock.unlock();
      }
    }
  }

  static class MonitorWaiter extends Thread {
    private final Box box;
    private String got;

    MonitorWaiter(Box box) {
      super("monitor-waiter");
      this.box = box;
    }

    @Override
    public void run() {
      try {
        String message = box.take();
        got = message.trim(); // NullPointerException after a spurious wake-up
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
    }

    String got() {
      return got;
    }
  }

  static class ConditionWaiter extends Thread {
    private final Slot slot;
    private String got;

    ConditionWaiter(Slot slot) {
      super("condition-waiter");
      this.slot = slot;
    }

    @Override
    public void run() {
      try {
        String message = slot.take();
        got = message.trim(); // NullPointerException after a spurious wake-up
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
    }

    String got() {
      return got;
    }
  }

  static class Worker extends Thread {
    private final Box box;
    private final Slot slot;
    private long setupChecksum;

    Worker(Box box, Slot slot) {
      super("worker");
      this.box = box;
      this.slot = slot;
    }

    @Override
    public void run() {
      setUp();
      box.put("hello");
      slot.put("world");
    }

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps the worker behind the waiters.
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
    Box box = new Box();
    Slot slot = new Slot();
    MonitorWaiter monitorWaiter = new MonitorWaiter(box);
    ConditionWaiter conditionWaiter = new ConditionWaiter(slot);
    Worker worker = new Worker(box, slot);
    monitorWaiter.start();
    conditionWaiter.start();
    worker.start();
    worker.join();
    monitorWaiter.join();
    conditionWaiter.join();
    if (!"hello".equals(monitorWaiter.got()) || !"world".equals(conditionWaiter.got())) {
      throw new AssertionError(
          "waiters got " + monitorWaiter.got() + " and " + conditionWaiter.got());
    }
    System.out.println(
        "monitor waiter got " + monitorWaiter.got() + ", condition waiter got "
            + conditionWaiter.got());
  }
}
