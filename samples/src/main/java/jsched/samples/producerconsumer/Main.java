/*
 * producerconsumer: consumers that wait with `if` instead of `while`.
 *
 * Models: a producer thread puts two items into a shared LinkedList (one synchronized block per
 * item, followed by notifyAll); two consumer threads take one item each, waiting while the list is
 * empty. Each consumer first does some local preparation without synchronization (invisible to
 * jsched; in plain runs it keeps the consumers behind the producer).
 *
 * Bug: a consumer checks `if (queue.isEmpty()) queue.wait();` and, once woken, removes the first
 * element without checking again. One failing schedule: consumer 1 finds the list empty and
 * waits; the producer adds an item and wakes it; before consumer 1 gets the monitor back,
 * consumer 2 enters, finds the item and takes it; consumer 1 then calls removeFirst on an empty
 * list. (A spurious wakeup has the same effect.)
 *
 * Shows as: java.util.NoSuchElementException escaping a consumer thread (jsched exit status 3).
 * Correct runs print "consumed 2 items, sum 3".
 */
package jsched.samples.producerconsumer;

import java.util.LinkedList;

public class Main {
  static class Producer extends Thread {
    private final LinkedList<Integer> queue;

    Producer(LinkedList<Integer> queue) {
      super("producer");
      this.queue = queue;
    }

    @Override
    public void run() {
      for (int item = 1; item <= 2; item++) {
        synchronized (queue) {
          queue.addLast(item);
          queue.notifyAll();
        }
      }
    }
  }

  static class Consumer extends Thread {
    private final LinkedList<Integer> queue;
    private long setupChecksum;
    private int taken;

    Consumer(String name, LinkedList<Integer> queue) {
      super(name);
      this.queue = queue;
    }

    @Override
    public void run() {
      setUp();
      synchronized (queue) {
        try {
          if (queue.isEmpty()) { // BUG: must be `while`
            queue.wait();
          }
        } catch (InterruptedException e) {
          throw new IllegalStateException("interrupted", e);
        }
        taken = queue.removeFirst();
      }
    }

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps the consumers behind the producer.
     */
    private void setUp() {
      long sum = 0;
      for (int i = 0; i < 200_000; i++) {
        sum = sum * 31 + i;
      }
      setupChecksum = sum;
    }

    int taken() {
      return taken;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    LinkedList<Integer> queue = new LinkedList<>();
    Producer producer = new Producer(queue);
    Consumer consumer1 = new Consumer("consumer-1", queue);
    Consumer consumer2 = new Consumer("consumer-2", queue);
    producer.start();
    consumer1.start();
    consumer2.start();
    producer.join();
    consumer1.join();
    consumer2.join();
    int sum = consumer1.taken() + consumer2.taken();
    if (sum != 3) {
      throw new AssertionError("consumed items sum to " + sum + ", expected 3");
    }
    System.out.println("consumed 2 items, sum " + sum);
  }
}
