/*
 * twostageN (correct variant): the two-stage update made atomic, by N writers.
 *
 * Same program as Main (N writers, the argument, default 10, and two readers), but each writer
 * keeps lock1 while it takes lock2 and runs stage 2, so no reader (which also holds both locks
 * while it reads) can see the pair between the two stages. Everyone takes lock1 before lock2, so
 * there is no deadlock either.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "data1=1 data2=2 writers=N"
 * ("data1=1 data2=2 writers=10" for the default).
 */
package jsched.samples.twostagen;

public class Fixed {
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
      synchronized (lock1) {
        data1 = 1;
        int published = data1;
        synchronized (lock2) {
          data2 = published + 1;
        }
      }
    }
  }

  static class Reader extends Thread {
    private long setupChecksum;

    Reader(String name) {
      super(name);
    }

    /** Local preparation (a table checksum) without any synchronization. */
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
