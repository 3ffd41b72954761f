/*
 * wronglock (correct variant): a shared counter, every thread using the counter's monitor.
 *
 * Same program as Main, but the importer counts its batch under `synchronized (counter)` like the
 * workers, so the read, the audit call and the write of one update are never interleaved with
 * another update.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "count=3 audited=3".
 */
package jsched.samples.wronglock;

public class Fixed {
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

  /** Records waiting to be imported; used by the importer thread only. */
  static class Batch {
    private final String[] records;
    private int position;

    Batch(String... records) {
      this.records = records;
    }

    synchronized String next() {
      return position < records.length ? records[position++] : null;
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
      synchronized (counter) {
        int old = counter.value;
        audit.record(getName(), old);
        counter.value = old + 1;
      }
    }
  }

  static class Importer extends Thread {
    private final Counter counter;
    private final AuditLog audit;
    private final Batch batch;
    private int imported;
    private long setupChecksum;

    Importer(Counter counter, AuditLog audit, Batch batch) {
      super("importer");
      this.counter = counter;
      this.audit = audit;
      this.batch = batch;
    }

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps this thread behind the threads started before it.
     */
    private void setUp() {
      long sum = 0;
      for (int i = 0; i < 200_000; i++) {
        sum = sum * 31 + i;
      }
      setupChecksum = sum;
    }

    @Override
    public void run() {
      setUp();
      while (batch.next() != null) {
        imported++;
      }
      countBatch();
    }

    private void countBatch() {
      synchronized (counter) {
        int old = counter.value;
        audit.record(getName(), old);
        counter.value = old + 1;
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Counter counter = new Counter();
    AuditLog audit = new AuditLog();
    Thread[] threads = {
      new Worker("worker-1", counter, audit),
      new Worker("worker-2", counter, audit),
      new Importer(counter, audit, new Batch("r1", "r2", "r3")),
    };
    for (Thread thread : threads) {
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    int count;
    synchronized (counter) {
      count = counter.value;
    }
    if (count != threads.length) {
      throw new AssertionError("lost update: count=" + count + ", expected " + threads.length);
    }
    System.out.println("count=" + count + " audited=" + audit.entries());
  }
}
