/*
 * boundedbuffer (correct variant): a one-slot buffer shared by a producer and two consumers.
 *
 * Same program as Main, but put and take wake every waiter with notifyAll(); each woken thread
 * re-checks its condition in a `while` loop, so no wakeup is ever lost and spurious wakeups are
 * harmless.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "consumed 2 items, sum 3".
 */
package jsched.samples.boundedbuffer;

public class Fixed {
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
      notifyAll();
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
      notifyAll();
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
