/*
 * interruptwait: an InterruptedException swallowed by a waiting thread.
 *
 * Models: a worker waits for a message in a mailbox and then processes it; a poster thread
 * delivers the message; a watchdog thread, started last, interrupts the worker to cancel it in
 * case it is still stuck (normally the worker is long done and the interrupt does nothing).
 *
 * Bug: the worker's InterruptedException handler only logs the interruption and falls through to
 * the code that assumes the message has arrived. When the scheduler lets the watchdog interrupt
 * the worker while the worker is in wait() and the message has not been posted yet, the worker
 * leaves the wait loop with no message and dereferences null.
 *
 * Shows as: NullPointerException escaping the worker thread (jsched exit status 3). Correct runs
 * print "processed hello (5 chars)".
 */
package jsched.samples.interruptwait;

public class Main {
  static class Mailbox {
    String message;
    int processedLength = -1;
  }

  static class Worker extends Thread {
    private final Mailbox mailbox;

    Worker(Mailbox mailbox) {
      super("worker");
      this.mailbox = mailbox;
    }

    @Override
    public void run() {
      synchronized (mailbox) {
        try {
          while (mailbox.message == null) {
            mailbox.wait();
          }
        } catch (InterruptedException e) {
          // BUG: swallowed; "an interrupt only comes after the work is done" is not true.
        }
        mailbox.processedLength = mailbox.message.length();
      }
    }
  }

  static class Poster extends Thread {
    private final Mailbox mailbox;

    Poster(Mailbox mailbox) {
      super("poster");
      this.mailbox = mailbox;
    }

    @Override
    public void run() {
      synchronized (mailbox) {
        mailbox.message = "hello";
        mailbox.notifyAll();
      }
    }
  }

  static class Watchdog extends Thread {
    private final Thread target;

    Watchdog(Thread target) {
      super("watchdog");
      this.target = target;
    }

    @Override
    public void run() {
      target.interrupt(); // cancel the worker if it is still stuck
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Mailbox mailbox = new Mailbox();
    Worker worker = new Worker(mailbox);
    Poster poster = new Poster(mailbox);
    Watchdog watchdog = new Watchdog(worker);
    worker.start();
    poster.start();
    watchdog.start();
    worker.join();
    poster.join();
    watchdog.join();
    synchronized (mailbox) {
      if (mailbox.processedLength != mailbox.message.length()) {
        throw new AssertionError("processed length " + mailbox.processedLength);
      }
      System.out.println("processed " + mailbox.message + " (" + mailbox.processedLength + " chars)");
    }
  }
}
