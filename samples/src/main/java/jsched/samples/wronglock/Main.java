/*
 * wronglock: a shared counter protected by the wrong lock in one place.
 *
 * Models: a hit counter. The rule is "hold the counter's monitor while you update it"; inside
 * the critical section every update also records the old value in an audit log (a synchronized
 * method), which is a scheduling point between the read and the write of the counter. Two worker
 * threads count one hit each under `synchronized (counter)`. An importer thread first does some
 * local preparation without synchronization, then reads a batch of three records (synchronized
 * calls on its own batch object) and then counts one hit for the batch.
 *
 * Bug: the importer counts through its own synchronized method, which locks the importer object,
 * not the counter, so its critical section does not exclude the workers'. When the scheduler
 * switches threads while one side is between its read and its write (at the audit log call) and
 * the other side updates the counter, one of the two writes is based on a stale value and a hit
 * is lost. The importer's reading keeps the two sides apart most of the time.
 *
 * Shows as: main joins all threads and finds a count below 3 -> AssertionError thrown by main
 * (jsched exit status 3). Correct runs print "count=3 audited=3".
 */
package jsched.samples.wronglock;

public class Main {
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

    // BUG: a synchronized method locks the importer (`this`), not the counter.
    private synchronized void countBatch() {
      int old = counter.value;
      audit.record(getName(), old);
      counter.value = old + 1;
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
