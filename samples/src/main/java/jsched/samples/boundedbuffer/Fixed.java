/*
 * boundedbuffer (correct variant): a one-slot buffer shared by two producers and two consumers.
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

  static class Producer extends Thread {
    private final Buffer buffer;
    private final int item;

    Producer(String name, Buffer buffer, int item) {
      super(name);
      this.buffer = buffer;
      this.item = item;
    }

    @Override
    public void run() {
      try {
        buffer.put(item);
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
    }
  }

  static class Consumer extends Thread {
    private final Buffer buffer;
    private int taken;

    Consumer(String name, Buffer buffer) {
      super(name);
      this.buffer = buffer;
    }

    @Override
    public void run() {
      try {
        taken = buffer.take();
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
    }

    int taken() {
      return taken;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Buffer buffer = new Buffer(1);
    Consumer consumer1 = new Consumer("consumer-1", buffer);
    Consumer consumer2 = new Consumer("consumer-2", buffer);
    Producer producer1 = new Producer("producer-1", buffer, 1);
    Producer producer2 = new Producer("producer-2", buffer, 2);
    consumer1.start();
    consumer2.start();
    producer1.start();
    producer2.start();
    consumer1.join();
    consumer2.join();
    producer1.join();
    producer2.join();
    int sum = consumer1.taken() + consumer2.taken();
    if (sum != 3) {
      throw new AssertionError("consumed items sum to " + sum + ", expected 3");
    }
    System.out.println("consumed 2 items, sum " + sum);
  }
}
