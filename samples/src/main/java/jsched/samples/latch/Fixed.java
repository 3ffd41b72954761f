/*
 * latch (correct variant): count down in a finally block.
 *
 * Same program as Main, but each worker counts `done` down in a finally block, on every path:
 * a worker that finds the queue empty still counts down, so main's await() always returns.
 *
 * Expected jsched outcome: never fails (exit status 0); prints
 * "processed 3 items, sum of squares 14".
 */
package jsched.samples.latch;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

public class Fixed {
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
        Integer item = queue.poll();
        while (item != null) {
          total.addAndGet(process(item));
          item = queue.poll();
        }
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      } finally {
        done.countDown();
      }
    }

    /** The work on one item: local computation without any synchronization. */
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
