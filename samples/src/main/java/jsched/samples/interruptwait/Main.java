/*
 * interruptwait: an InterruptedException swallowed by a waiting thread.
 *
 * Models: a worker waits for a message in a mailbox, processes it and reports completion; a
 * poster thread delivers the message; a watchdog thread waits (with a generous timeout) for the
 * completion report and, if the timeout expires first, interrupts the worker to cancel it.
 *
 * Bug: the worker's InterruptedException handler only swallows the interruption and falls through
 * to the code that assumes the message has arrived. When the watchdog's timed wait times out (under
 * jsched a timeout is a scheduling choice; a plain run never waits the 5 seconds) while the worker
 * is in wait() and the message has not been posted yet, the worker leaves the wait loop with no
 * message and dereferences null.
 *
 * Shows as: NullPointerException escaping the worker thread (jsched exit status 3). Correct runs
 * print "processed hello (5 chars)".
 */
package jsched.samples.interruptwait;

public class Main {
  static final long WATCHDOG_TIMEOUT_MS = 5000;

  static class Mailbox {
    String message;
    int processedLength = -1;
  }

  static class Completion {
    boolean done;
  }

  static class Worker extends Thread {
    private final Mailbox mailbox;
    private final Completion completion;

    Worker(Mailbox mailbox, Completion completion) {
      super("worker");
      this.mailbox = mailbox;
      this.completion = completion;
    }

    @Override
    public void run() {
      synchronized (mailbox) {
        try {
          while (mailbox.message == null) {
            mailbox.wait();
          }
        } catch (InterruptedException e) {
          // BUG: swallowed; the code below assumes the message is there.
        }
        mailbox.processedLength = mailbox.message.length();
      }
      synchronized (completion) {
        completion.done = true;
        completion.notifyAll();
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
    private final Thread worker;
    private final Completion completion;

    Watchdog(Thread worker, Completion completion) {
      super("watchdog");
      this.worker = worker;
      this.completion = completion;
    }

    @Override
    public void run() {
      synchronized (completion) {
        try {
          if (!completion.done) {
            completion.wait(WATCHDOG_TIMEOUT_MS);
          }
        } catch (InterruptedException e) {
          throw new IllegalStateException("interrupted", e);
        }
        if (!completion.done) {
          worker.interrupt(); // timed out: cancel the worker
        }
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Mailbox mailbox = new Mailbox();
    Completion completion = new Completion();
    Worker worker = new Worker(mailbox, completion);
    Watchdog watchdog = new Watchdog(worker, completion);
    Poster poster = new Poster(mailbox);
    worker.start();
    poster.start();
    watchdog.start();
    worker.join();
    watchdog.join();
    poster.join();
    synchronized (mailbox) {
      if (mailbox.processedLength != mailbox.message.length()) {
        throw new AssertionError("processed length " + mailbox.processedLength);
      }
      System.out.println(
          "processed " + mailbox.message + " (" + mailbox.processedLength + " chars)");
    }
  }
}
