/*
 * boundedbuffer: a one-slot buffer shared by a producer and two consumers (wait/notify).
 *
 * Models: the classic bounded buffer of the Java PathFinder examples. The buffer holds one item;
 * put waits while it is full, take waits while it is empty, and both use `while` loops. A
 * producer (which first switches on and calibrates its own machine, two synchronized calls)
 * hands over two items in one call, putAll, which holds the buffer's monitor from one put to the
 * next; two consumers take one item each.
 *
 * Bug: put and take wake up one waiter with notify() instead of notifyAll(). The producer and the
 * consumers wait on the same monitor, so a notify meant for the producer can wake a consumer.
 * The failing schedule: both consumers wait on the empty buffer; the producer puts item 1 and its
 * notify wakes consumer 1; still in putAll, the producer finds the buffer full and waits;
 * consumer 1 takes item 1 and its notify wakes consumer 2 instead of the producer; consumer 2
 * finds the buffer empty and waits again. The producer and consumer 2 now wait forever. (The
 * only pre-emption it needs is the producer's, before putAll, when the consumers have higher
 * priorities: a depth-1 or depth-2 bug for PCT.)
 *
 * Shows as: deadlock, every live thread waiting (jsched exit status 4). Correct runs print
 * "consumed 2 items, sum 3". (The producer is started first and each consumer first does some
 * local preparation without synchronization, so plain runs practically never have both consumers
 * waiting before the first item.)
 */
package jsched.samples.boundedbuffer;

public class Main {
  static class Buffer {
    private final int[] slots;
    private int count;
    private int putIndex;
    private int takeIndex;

    Buffer(int capacity) {
      slots = new int[capacity];
    }

    synchronized void put(int item) throws InterruptedException {
      while (count == slots.length) {
        wait();
      }
      slots[putIndex] = item;
      putIndex = (putIndex + 1) % slots.length;
      count++;
      notify(); // BUG: should be notifyAll()
    }

    /** Puts the items in order, holding the buffer throughout (except while waiting). */
    synchronized void putAll(int... items) throws InterruptedException {
      for (int item : items) {
        put(item);
      }
    }

    synchronized int take() throws InterruptedException {
      while (count == 0) {
        wait();
      }
      int item = slots[takeIndex];
      takeIndex = (takeIndex + 1) % slots.length;
      count--;
      notify(); // BUG: should be notifyAll()
      return item;
    }
  }

  /** The producer's own machine; only the producer uses it. */
  static class Machine {
    private boolean ready;

    synchronized void switchOn() {
      ready = false;
    }

    synchronized void calibrate() {
      ready = true;
    }
  }

  static class Producer extends Thread {
    private final Buffer buffer;
    private final int[] items;
    private final Machine machine = new Machine();

    Producer(String name, Buffer buffer, int... items) {
      super(name);
      this.buffer = buffer;
      this.items = items;
    }

    @Override
    public void run() {
      machine.switchOn();
      machine.calibrate();
      try {
        buffer.putAll(items);
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
    }
  }

  static class Consumer extends Thread {
    private final Buffer buffer;
    private int taken;
    private long setupChecksum;

    Consumer(String name, Buffer buffer) {
      super(name);
      this.buffer = buffer;
    }

    @Override
    public void run() {
      setUp();
      try {
        taken = buffer.take();
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
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
    Buffer buffer = new Buffer(1);
    Producer producer = new Producer("producer", buffer, 1, 2);
    Consumer consumer1 = new Consumer("consumer-1", buffer);
    Consumer consumer2 = new Consumer("consumer-2", buffer);
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
