/*
 * missedsignal: a mailbox whose take() checks for mail outside the lock and then waits once.
 *
 * Models: a mailbox between two virtual threads. A producer posts two orders and then "stop";
 * a consumer takes messages until "stop" and totals the orders. The messages are an ArrayDeque
 * guarded by the mailbox's monitor; post() adds one and calls notifyAll() under the monitor.
 * Next to the queue, a volatile `pending` count lets take() see cheaply, without the monitor,
 * whether there is mail.
 *
 * Bug: take() checks `pending` outside the monitor and, if it is 0, enters the monitor and calls
 * wait() once, without checking again under the monitor. When the scheduler switches threads
 * after the consumer has read pending == 0 (at its monitor enter) and the producer posts its last
 * message meanwhile, the notifyAll() finds nobody waiting: the consumer then waits forever for
 * a message that is already in the box.
 *
 * Shows as: deadlock, the consumer in Object.wait and main blocked in join (jsched exit status
 * 4). Since the wait is not in a loop, a spurious wakeup (which jsched also makes) lets take()
 * return no message: the consumer then fails with an AssertionError (exit status 3). Correct
 * runs print "orders=2 total=30". (The producer prices each order without any synchronization
 * first, so in plain runs the consumer is already waiting when a message arrives.)
 */
package jsched.samples.virtual.missedsignal;

import java.util.ArrayDeque;

public class Main {
  static class Mailbox {
    private final ArrayDeque<String> messages = new ArrayDeque<>(); // guarded by this
    private volatile int pending;

    synchronized void post(String message) {
      messages.add(message);
      pending++;
      notifyAll();
    }

    String take() throws InterruptedException {
      // BUG: checked without the monitor, and wait() is not in a loop that checks again.
      if (pending == 0) {
        synchronized (this) {
          wait();
        }
      }
      synchronized (this) {
        String message = messages.poll();
        if (message == null) {
          throw new AssertionError("woken up with no message in the mailbox");
        }
        pending--;
        return message;
      }
    }
  }

  static class Producer implements Runnable {
    private final Mailbox mailbox;
    private long pricingChecksum;

    Producer(Mailbox mailbox) {
      this.mailbox = mailbox;
    }

    @Override
    public void run() {
      mailbox.post("order:" + price(10));
      mailbox.post("order:" + price(20));
      mailbox.post("stop");
    }

    /**
     * Prices an order: local work (a checksum) without any synchronization, invisible to jsched,
     * but in plain runs it keeps the producer behind the consumer.
     */
    private int price(int amount) {
      long sum = amount;
      for (int i = 0; i < 200_000; i++) {
        sum = sum * 31 + i;
      }
      pricingChecksum = sum;
      return amount;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Mailbox mailbox = new Mailbox();
    int[] result = new int[2]; // orders, total: written by the consumer, read after join
    Thread consumer = Thread.ofVirtual().name("consumer").start(() -> {
      try {
        for (String message = mailbox.take(); !message.equals("stop");
            message = mailbox.take()) {
          result[0]++;
          result[1] += Integer.parseInt(message.substring("order:".length()));
        }
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
    });
    Thread producer = Thread.ofVirtual().name("producer").start(new Producer(mailbox));
    producer.join();
    consumer.join();
    if (result[0] != 2 || result[1] != 30) {
      throw new AssertionError("consumer saw " + result[0] + " orders worth " + result[1]);
    }
    System.out.println("orders=" + result[0] + " total=" + result[1]);
  }
}
