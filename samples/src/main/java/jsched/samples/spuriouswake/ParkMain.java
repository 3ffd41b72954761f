/*
 * spuriouswake (LockSupport): a park() that is not in a loop, found out by a spurious return.
 *
 * Models: a one-shot event on LockSupport. The waiter publishes itself in a volatile field, and if
 * the event's volatile message is still null, parks once and then reads the message. The worker
 * (after some local computation) stores the message and then unparks the published waiter, if
 * there is one. The waiter is started first.
 *
 * Bug: the waiter calls LockSupport.park() once, not in a loop that re-checks the message. Without
 * spurious returns this is correct: the waiter publishes itself before it reads the message and
 * the worker stores the message before it reads the waiter field (all volatile, so one of them
 * sees the other's write), so either the waiter finds the message or the worker unparks it after
 * storing it (a permit given before park() makes park() return at once), and nothing else unparks
 * this thread. But park() may also return "spuriously (that is, for no reason)" (the LockSupport
 * javadoc), and then the waiter reads a null message. A spurious return is the only way this
 * program can fail: a scheduler finds the bug only if it makes spurious returns one of its
 * choices.
 *
 * Shows as: NullPointerException escaping the waiter thread (jsched exit status 3). Correct runs
 * print "waiter got ticket-42".
 */
package jsched.samples.spuriouswake;

import java.util.concurrent.locks.LockSupport;

public class ParkMain {
  static class OneShotEvent {
    private volatile Thread waiter;
    private volatile String message;

    String await() {
      waiter = Thread.currentThread();
      if (message == null) { // BUG: must be `while`; a spurious return finds no message
        LockSupport.park(this);
      }
      return message;
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
      got = message.trim(); // NullPointerException after a spurious return
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
