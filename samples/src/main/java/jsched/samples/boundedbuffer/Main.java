/*
 * boundedbuffer: a one-slot buffer shared by two producers and two consumers (wait/notify).
 *
 * Models: the classic bounded buffer of the Java PathFinder examples. The buffer holds one item;
 * put waits while it is full, take waits while it is empty, and both use `while` loops. Two
 * consumers (one item each) are started first, then two producers (one item each).
 *
 * Bug: put and take wake up one waiter with notify() instead of notifyAll(). Producers and
 * consumers wait on the same monitor, so a notify meant for a producer can wake a consumer (or
 * the reverse). One schedule that loses the wakeup: both consumers wait on the empty buffer;
 * producer 1 puts and its notify wakes consumer 1; producer 2 gets the monitor first, finds the
 * buffer full and waits; consumer 1 takes and its notify wakes consumer 2 instead of producer 2;
 * consumer 2 finds the buffer empty and waits again. Producer 2 and consumer 2 now wait forever.
 *
 * Shows as: deadlock, every live thread waiting (jsched exit status 4). Correct runs print
 * "consumed 2 items, sum 3".
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
