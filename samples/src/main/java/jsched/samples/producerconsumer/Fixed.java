/*
 * producerconsumer (correct variant): consumers that wait in a `while` loop.
 *
 * Same program as Main, but each consumer re-checks the list after every wakeup
 * (`while (queue.isEmpty()) queue.wait();`), so it only removes an element that is there.
 * Another consumer taking the item first, or a spurious wakeup, just sends it back to wait.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "consumed 2 items, sum 3".
 */
package jsched.samples.producerconsumer;

import java.util.LinkedList;

public class Fixed {
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
          while (queue.isEmpty()) {
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
