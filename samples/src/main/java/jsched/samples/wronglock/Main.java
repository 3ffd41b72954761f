/*
 * wronglock: a shared counter protected by the wrong lock in one place.
 *
 * Models: a hit counter incremented by three worker threads, two increments each. The rule is
 * "hold the counter's monitor while you update it"; inside the critical section each increment
 * also records the old value in an audit log (a synchronized method), which is a scheduling point
 * between the read and the write of the counter.
 *
 * Bug: the third worker synchronizes on itself (`this`, the worker object) instead of on the
 * counter, so its critical section does not exclude the others'. When the scheduler switches
 * threads while that worker is between its read and its write (at the audit log call) and another
 * worker increments the counter, the wrong-lock worker writes back a stale value: one increment is
 * lost.
 *
 * Shows as: main joins the workers and finds a count below 6 -> AssertionError thrown by main
 * (jsched exit status 3). Correct runs print "count=6 audited=6".
 */
package jsched.samples.wronglock;

public class Main {
  static final int INCREMENTS = 2;

  static class Counter {
    int value;
  }

  static class AuditLog {
    private int entries;

    synchronized void record(String who, int oldValue) {
      entries++;
    }

    synchronized int entries() {
      return entries;
    }
  }

  static class Worker extends Thread {
    private final Counter counter;
    private final AuditLog audit;
    private final boolean useWrongLock;

    Worker(String name, Counter counter, AuditLog audit, boolean useWrongLock) {
      super(name);
      this.counter = counter;
      this.audit = audit;
      this.useWrongLock = useWrongLock;
    }

    @Override
    public void run() {
      for (int i = 0; i < INCREMENTS; i++) {
        // BUG: the third worker locks itself, not the counter.
        Object lock = useWrongLock ? this : counter;
        synchronized (lock) {
          int old = counter.value;
          audit.record(getName(), old);
          counter.value = old + 1;
        }
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Counter counter = new Counter();
    AuditLog audit = new AuditLog();
    Worker[] workers = {
      new Worker("worker-1", counter, audit, false),
      new Worker("worker-2", counter, audit, false),
      new Worker("worker-3", counter, audit, true),
    };
    for (Worker worker : workers) {
      worker.start();
    }
    for (Worker worker : workers) {
      worker.join();
    }
    int count;
    synchronized (counter) {
      count = counter.value;
    }
    int expected = workers.length * INCREMENTS;
    if (count != expected) {
      throw new AssertionError("lost update: count=" + count + ", expected " + expected);
    }
    System.out.println("count=" + count + " audited=" + audit.entries());
  }
}
