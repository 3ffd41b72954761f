/*
 * latch: a CountDownLatch that a worker forgets to count down.
 *
 * Models: main puts 3 items into a shared work queue (a ConcurrentLinkedQueue), starts 2 workers,
 * waits until both are at a start gate (a CountDownLatch `ready` of count 2), lets them begin
 * together (the gate: a CountDownLatch of count 1) and waits on a CountDownLatch `done` of count 2
 * until both have finished. Each worker polls items until the queue is empty, adds the square of
 * each item to a shared AtomicInteger, and counts `done` down.
 *
 * Bug: a worker whose first poll() finds the queue empty returns at once, without counting `done`
 * down. This happens when the scheduler lets one worker poll all 3 items (it loops) before the
 * other worker polls for the first time. `done` then stays at 1.
 *
 * Shows as: deadlock, main waiting in CountDownLatch.await with both workers finished (jsched exit
 * status 4). Correct runs print "processed 3 items, sum of squares 14". (Processing an item is
 * about 10 ms of local computation without any synchronization, and the start gate wakes both
 * workers at once, so a slow start of the second thread does not matter: in plain runs the second
 * worker has taken an item long before the first one is done with two.)
 */
package jsched.samples.latch;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

public class Main {
  static class Worker extends Thread {
    private final ConcurrentLinkedQueue<Integer> queue;
    private final AtomicInteger total;
    private final CountDownLatch ready;
    private final CountDownLatch start;
    private final CountDownLatch done;
    private long workChecksum;

    Worker(
        String name,
        ConcurrentLinkedQueue<Integer> queue,
        AtomicInteger total,
        CountDownLatch ready,
        CountDownLatch start,
        CountDownLatch done) {
      super(name);
      this.queue = queue;
      this.total = total;
      this.ready = ready;
      this.start = start;
      this.done = done;
    }

    @Override
    public void run() {
      try {
        ready.countDown();
        start.await();
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
      Integer item = queue.poll();
      if (item == null) {
        return; // BUG: nothing to do, but done is never counted down
      }
      do {
        total.addAndGet(process(item));
        item = queue.poll();
      } while (item != null);
      done.countDown();
    }

    /**
     * The work on one item: local computation without any synchronization (invisible to jsched;
     * in plain runs it keeps a worker busy long enough for the other one to take an item too).
     */
    private int process(int item) {
      long sum = 0;
      for (int i = 0; i < 10_000_000; i++) {
        sum = sum * 31 + i;
      }
      workChecksum += sum;
      return item * item;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    ConcurrentLinkedQueue<Integer> queue = new ConcurrentLinkedQueue<>();
    for (int item = 1; item <= 3; item++) {
      queue.add(item);
    }
    AtomicInteger total = new AtomicInteger();
    CountDownLatch ready = new CountDownLatch(2);
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(2);
    Worker worker1 = new Worker("worker-1", queue, total, ready, start, done);
    Worker worker2 = new Worker("worker-2", queue, total, ready, start, done);
    worker1.start();
    worker2.start();
    ready.await(); // both workers are at the start gate
    start.countDown(); // let them begin together
    done.await();
    worker1.join();
    worker2.join();
    int sum = total.get();
    if (sum != 14) {
      throw new AssertionError("sum of squares " + sum + ", expected 14");
    }
    System.out.println("processed 3 items, sum of squares " + sum);
  }
}
