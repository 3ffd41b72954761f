/*
 * spuriouswake (LockSupport, correct variant): park() in a loop.
 *
 * Same program as ParkMain, but the waiter parks in a `while (message == null)` loop: a spurious
 * return from park() (allowed by the LockSupport javadoc) only sends it back to park, and the
 * worker's unpark after storing the message ends the loop (or the waiter finds the message before
 * it parks at all).
 *
 * Expected jsched outcome: never fails (exit status 0), with or without spurious returns; prints
 * "waiter got ticket-42".
 */
package jsched.samples.spuriouswake;

import java.util.concurrent.locks.LockSupport;

public class ParkFixed {
  static class OneShotEvent {
    private volatile Thread waiter;
    private volatile String message;

    String await() {
      waiter = Thread.currentThread();
      String got;
      while ((got = message) == null) {
        LockSupport.park(this);
      }
      return got;
    }

    void fire(String message) {
      this.message = message;
      Thread parked = waiter;
      if (parked != null) {
        LockSupport.unpark(parked);
      }
    }
  }

  static class Waiter extends Thread {
    private final OneShotEvent event;
    private String got;

    Waiter(OneShotEvent event) {
      super("waiter");
      this.event = event;
    }

    @Override
    public void run() {
      String message = event.await();
      got = message.trim();
    }

    String got() {
      return got;
    }
  }

  static class Worker extends Thread {
    private final OneShotEvent event;
    private long setupChecksum;

    Worker(OneShotEvent event) {
      super("worker");
      this.event = event;
    }

    @Override
    public void run() {
      setUp();
      event.fire("ticket-42");
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
    OneShotEvent event = new OneShotEvent();
    Waiter waiter = new Waiter(event);
    Worker worker = new Worker(event);
    waiter.start();
    worker.start();
    worker.join();
    waiter.join();
    if (!"ticket-42".equals(waiter.got())) {
      throw new AssertionError("waiter got " + waiter.got() + ", expected ticket-42");
    }
    System.out.println("waiter got " + waiter.got());
  }
}
