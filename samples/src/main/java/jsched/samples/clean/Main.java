package jsched.samples.clean;

/**
 * SIR's "clean" program, as the TSCA thesis tests it (Çalpur's thesis, §6.2, Listings 4-7; see
 * docs/references.md): two tasks
 * hand control back and forth through two events with a counter. The bug: a task reads the
 * event's counter outside the event's lock, so when the other task has already signalled
 * before the first read, the task waits for a signal that came already, while the other waits
 * for its answer: both wait forever (a deadlock). Arguments: first tasks, second tasks,
 * iterations (default 1 1 3).
 */
public class Main {
  static final class Event {
    int count = 0;

    synchronized void waitForEvent(int remoteCount) {
      if (remoteCount == count) {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }

    synchronized void signalEvent() {
      count = (count + 1) % 100;
      notifyAll();
    }
  }

  static final class FirstTask extends Thread {
    private final Event event1, event2;
    private final int iterations;

    FirstTask(Event e1, Event e2, int iterations) {
      this.event1 = e1;
      this.event2 = e2;
      this.iterations = iterations;
    }

    @Override
    public void run() {
      int count = event1.count; // unsynchronized read: may already include a signal
      for (int i = 0; i < iterations; i++) {
        event1.waitForEvent(count);
        count = event1.count;
        event2.signalEvent();
      }
    }
  }

  static final class SecondTask extends Thread {
    private final Event event1, event2;
    private final int iterations;

    SecondTask(Event e1, Event e2, int iterations) {
      this.event1 = e1;
      this.event2 = e2;
      this.iterations = iterations;
    }

    @Override
    public void run() {
      int count = event2.count;
      for (int i = 0; i < iterations; i++) {
        event1.signalEvent();
        event2.waitForEvent(count);
        count = event2.count;
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    int first = args.length > 0 ? Integer.parseInt(args[0]) : 1;
    int second = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    int iterations = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    Event e1 = new Event(), e2 = new Event();
    Thread[] tasks = new Thread[first + second];
    for (int i = 0; i < first; i++) tasks[i] = new FirstTask(e1, e2, iterations);
    for (int i = 0; i < second; i++) tasks[first + i] = new SecondTask(e1, e2, iterations);
    for (Thread t : tasks) t.start();
    for (Thread t : tasks) t.join();
    System.out.println("clean: done");
  }
}
