/*
 * missedsignal (correct variant): waiting for mail in a loop, under the monitor.
 *
 * Same program as Main, but take() is synchronized and checks the queue itself in a `while`
 * loop around wait(); the volatile count and its check without the monitor are gone. If the
 * message arrived first, the consumer never waits; if it waits, the producer cannot enter the
 * monitor to post and notify before wait() has released it, so the notifyAll() reaches the
 * consumer. A spurious wakeup just goes round the loop again.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "orders=2 total=30".
 */
package jsched.samples.virtual.missedsignal;

import java.util.ArrayDeque;

public class Fixed {
  static class Mailbox {
    private final ArrayDeque<String> messages = new ArrayDeque<>(); // guarded by this

    synchronized void post(String message) {
      messages.add(message);
      notifyAll();
    }

    synchronized String take() throws InterruptedException {
      while (messages.isEmpty()) {
        wait();
      }
      return messages.poll();
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

    /** Prices an order: local work (a checksum) without any synchronization. */
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
