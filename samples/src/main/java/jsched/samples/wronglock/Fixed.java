/*
 * wronglock (correct variant): a shared counter, every worker using the counter's monitor.
 *
 * Same program as Main, but all three workers synchronize on the counter, so the read, the audit
 * call and the write of one increment are never interleaved with another increment.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "count=6 audited=6".
 */
package jsched.samples.wronglock;

public class Fixed {
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

    Worker(String name, Counter counter, AuditLog audit) {
      super(name);
      this.counter = counter;
      this.audit = audit;
    }

    @Override
    public void run() {
      for (int i = 0; i < INCREMENTS; i++) {
        synchronized (counter) {
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
      new Worker("worker-1", counter, audit),
      new Worker("worker-2", counter, audit),
      new Worker("worker-3", counter, audit),
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
