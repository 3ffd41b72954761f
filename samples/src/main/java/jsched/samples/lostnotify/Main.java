/*
 * lostnotify: a notification sent before anybody waits for it.
 *
 * Models: a worker computes a result (two additions into its own synchronized accumulator) and
 * announces it through a gate (open + notify); a waiter thread blocks until the gate is open and
 * then reads the result. The waiter is started first.
 *
 * Bug: the waiter asks gate.isOpen() in one synchronized call and then, in a separate
 * synchronized block, calls wait() once without re-checking the condition. When the scheduler
 * switches threads after the waiter's isOpen() returned false (at its monitorexit) and the worker
 * opens the gate and notifies before the waiter enters its wait, the notification is lost: the
 * waiter waits forever.
 *
 * Shows as: deadlock, the waiter in Object.wait and main in join (jsched exit status 4). Correct
 * runs print "result=42".
 */
package jsched.samples.lostnotify;

public class Main {
  static class Gate {
    private boolean open;
    private int result;

    synchronized boolean isOpen() {
      return open;
    }

    synchronized void open(int value) {
      result = value;
      open = true;
      notify();
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
        // BUG: check and wait are not one atomic step, and the wait is not in a loop.
        if (!gate.isOpen()) {
          synchronized (gate) {
            gate.wait();
          }
        }
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
