/*
 * parkunpark (correct variant): publish first, then park until done.
 *
 * Same program as Main, but the waiter publishes itself before it checks done, and parks in a
 * `while (!done)` loop. The worker sets done before it reads the waiter slot, so either the
 * waiter sees done == true and does not park, or the worker sees the waiter and unparks it (a
 * permit given before park() makes park() return at once). The loop also absorbs spurious returns
 * from park().
 *
 * Expected jsched outcome: never fails (exit status 0); prints "ticket=42".
 */
package jsched.samples.parkunpark;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

public class Fixed {
  static class OneShotEvent {
    private volatile boolean done;
    private volatile int value;
    private final AtomicReference<Thread> waiter = new AtomicReference<>();

    int await() {
      waiter.set(Thread.currentThread());
      while (!done) {
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
