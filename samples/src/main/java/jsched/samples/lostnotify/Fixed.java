/*
 * lostnotify (correct variant): waiting for a condition in a loop, under the lock.
 *
 * Same program as Main, but the waiter checks the gate and waits in one synchronized block, in a
 * `while` loop: if the worker opened the gate first, the waiter never waits; if it waits, the
 * worker cannot open the gate before the wait has released the monitor, so the notification
 * reaches it. Spurious wakeups are harmless.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "result=42".
 */
package jsched.samples.lostnotify;

public class Fixed {
  static class Gate {
    private boolean open;
    private int result;

    synchronized void awaitOpen() throws InterruptedException {
      while (!open) {
        wait();
      }
    }

    synchronized void open(int value) {
      result = value;
      open = true;
      notifyAll();
    }

    synchronized int result() {
      return result;
    }
  }

  static class Waiter extends Thread {
    private final Gate gate;
    private int seen;

    Waiter(Gate gate) {
      super("waiter");
      this.gate = gate;
    }

    @Override
    public void run() {
      try {
        gate.awaitOpen();
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
      seen = gate.result();
    }

    int seen() {
      return seen;
    }
  }

  /** The worker's private scratch space for computing the result. */
  static class Accumulator {
    private int sum;

    synchronized void add(int value) {
      sum += value;
    }

    synchronized int sum() {
      return sum;
    }
  }

  static class Worker extends Thread {
    private final Gate gate;

    Worker(Gate gate) {
      super("worker");
      this.gate = gate;
    }

    @Override
    public void run() {
      Accumulator accumulator = new Accumulator();
      accumulator.add(20);
      accumulator.add(22);
      gate.open(accumulator.sum());
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Gate gate = new Gate();
    Waiter waiter = new Waiter(gate);
    Worker worker = new Worker(gate);
    waiter.start();
    worker.start();
    worker.join();
    waiter.join();
    if (waiter.seen() != 42) {
      throw new AssertionError("waiter saw result " + waiter.seen() + ", expected 42");
    }
    System.out.println("result=" + waiter.seen());
  }
}
