/*
 * spuriouswake (correct variant): waits guarded by `while` loops.
 *
 * Same program as Main, but both waiters wait in a loop, `while (!ready) wait();` and
 * `while (!ready) filled.await();`: a spurious wake-up (JLS 17.2.1, the Condition javadoc) only
 * sends the waiter back to wait, so it returns only once the message is there.
 *
 * Expected jsched outcome: never fails (exit status 0), with or without spurious wake-ups; prints
 * "monitor waiter got hello, condition waiter got world".
 */
package jsched.samples.spuriouswake;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

public class Fixed {
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
      while (!ready) {
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
        while (!ready) {
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
        got = message.trim();
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
        got = message.trim();
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
