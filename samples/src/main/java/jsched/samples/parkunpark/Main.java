/*
 * parkunpark: a hand-rolled one-shot event on LockSupport.park/unpark that loses its wakeup.
 *
 * Models: a one-shot event built directly on LockSupport. The waiter checks a volatile `done`
 * flag; if the event has not fired, it publishes itself in the event's waiter slot (an
 * AtomicReference) and parks. The worker takes a ticket from a shared counter (an AtomicInteger at
 * 41), stores the ticket in the event, sets done, reads the waiter slot and, if a waiter is
 * there, unparks it. The waiter is started first.
 *
 * Bug: the waiter checks done before it publishes itself, and parks once without re-checking.
 * When the scheduler switches threads after the waiter has read done == false (at the
 * AtomicReference.set that publishes it) and the worker sets done and reads the still empty slot,
 * the worker unparks nobody; the waiter then publishes itself and parks forever.
 *
 * Shows as: deadlock, the waiter parked in LockSupport.park and main blocked in join (jsched exit
 * status 4). Correct runs print "ticket=42". (The worker first does some local computation
 * without any synchronization, so in plain runs the waiter has published itself long before.)
 */
package jsched.samples.parkunpark;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

public class Main {
  static class OneShotEvent {
    private volatile boolean done;
    private volatile int value;
    private final AtomicReference<Thread> waiter = new AtomicReference<>();

    int await() {
      // BUG: checks before publishing itself, and parks once instead of until done.
      if (!done) {
        waiter.set(Thread.currentThread());
        LockSupport.park(this);
      }
      return value;
    }

    void fire(int value) {
      this.value = value;
      done = true;
      Thread parked = waiter.get();
      if (parked != null) {
        LockSupport.unpark(parked);
      }
    }
  }

  static class Waiter extends Thread {
    private final OneShotEvent event;
    private int seen;

    Waiter(OneShotEvent event) {
      super("waiter");
      this.event = event;
    }

    @Override
    public void run() {
      seen = event.await();
    }

    int seen() {
      return seen;
    }
  }

  static class Worker extends Thread {
    private final OneShotEvent event;
    private final AtomicInteger tickets;
    private long setupChecksum;

    Worker(OneShotEvent event, AtomicInteger tickets) {
      super("worker");
      this.event = event;
      this.tickets = tickets;
    }

    @Override
    public void run() {
      setUp();
      event.fire(tickets.incrementAndGet());
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
    Worker worker = new Worker(event, new AtomicInteger(41));
    waiter.start();
    worker.start();
    worker.join();
    waiter.join();
    if (waiter.seen() != 42) {
      throw new AssertionError("waiter saw ticket " + waiter.seen() + ", expected 42");
    }
    System.out.println("ticket=" + waiter.seen());
  }
}
