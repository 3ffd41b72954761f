/*
 * twostageN: an update that should be atomic done in two synchronized stages, by N writers.
 *
 * Models: the "two-stage access" benchmark with a parameter for many-thread strategies. A pair
 * of values must satisfy data2 == data1 + 1 once data1 is set; data1 is guarded by lock1, data2 by
 * lock2. N writer threads (the argument, at least 1, default 10) each publish data1 = 1 (stage 1,
 * under lock1) and then compute data2 = data1 + 1 from the value they published (stage 2, under
 * lock2). Two reader threads, started after the writers and after some local preparation, take
 * lock1 and then lock2 and, holding both, check the relation.
 *
 * Bug: a writer releases lock1 before taking lock2, so the pair is inconsistent between its two
 * stages. When the scheduler switches threads after the first writer's stage 1 and a reader reads
 * the pair before any writer has run stage 2, the reader sees data1 = 1 with data2 = 0. Once any
 * writer has run stage 2 the pair stays (1, 2): the more writers there are, the more threads a
 * scheduler must keep from running their second stage. (Writers hold one lock at a time and
 * readers take lock1 before lock2, so there is no deadlock.)
 *
 * Shows as: AssertionError thrown by a reader thread (jsched exit status 3). Correct runs print
 * "data1=1 data2=2 writers=N" ("data1=1 data2=2 writers=10" for the default). (In plain runs the
 * writers have finished before the readers' preparation ends.)
 */
package jsched.samples.twostagen;

public class Main {
  static final Object lock1 = new Object();
  static final Object lock2 = new Object();
  static int data1; // guarded by lock1
  static int data2; // guarded by lock2

  static class Writer extends Thread {
    Writer(int index) {
      super("writer-" + index);
    }

    @Override
    public void run() {
      int published;
      synchronized (lock1) {
        data1 = 1;
        published = data1;
      }
      // BUG: the pair is inconsistent here; both stages should be one atomic action.
      synchronized (lock2) {
        data2 = published + 1;
      }
    }
  }

  static class Reader extends Thread {
    private long setupChecksum;

    Reader(String name) {
      super(name);
    }

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps the readers behind the writers started before them.
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
      int seen1;
      int seen2;
      synchronized (lock1) {
        synchronized (lock2) {
          seen1 = data1;
          seen2 = data2;
        }
      }
      boolean consistent = seen1 == 0 ? seen2 == 0 : seen2 == seen1 + 1;
      if (!consistent) {
        throw new AssertionError("inconsistent pair: data1=" + seen1 + " data2=" + seen2);
      }
    }
  }

  static int writerCount(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    if (n < 1) {
      throw new IllegalArgumentException("N must be at least 1 writer");
    }
    return n;
  }

  public static void main(String[] args) throws InterruptedException {
    int n = writerCount(args);
    Writer[] writers = new Writer[n];
    for (int i = 0; i < writers.length; i++) {
      writers[i] = new Writer(i + 1);
    }
    Reader reader1 = new Reader("reader-1");
    Reader reader2 = new Reader("reader-2");
    for (Writer writer : writers) {
      writer.start();
    }
    reader1.start();
    reader2.start();
    for (Writer writer : writers) {
      writer.join();
    }
    reader1.join();
    reader2.join();
    int value1;
    int value2;
    synchronized (lock1) {
      synchronized (lock2) {
        value1 = data1;
        value2 = data2;
      }
    }
    System.out.println("data1=" + value1 + " data2=" + value2 + " writers=" + n);
  }
}
