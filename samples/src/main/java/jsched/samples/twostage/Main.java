/*
 * twostage: an update that should be atomic done in two synchronized stages.
 *
 * Models: the "two-stage access" benchmark. A pair of values must satisfy data2 == data1 + 1
 * once data1 is set. data1 is guarded by lock1, data2 by lock2. A writer sets data1 (stage 1,
 * under lock1) and then derives data2 from it (stage 2, under lock2). Two readers read data1
 * under lock1 and then data2 under lock2, and check the relation.
 *
 * Bug: the writer releases lock1 before taking lock2, so the pair is inconsistent between the two
 * stages. When the scheduler switches threads after the writer's first monitorexit and a reader
 * runs both of its stages before the writer's second stage, the reader sees data1 = 1 with the
 * old data2 = 0.
 *
 * Shows as: AssertionError thrown by a reader thread (jsched exit status 3). Correct runs print
 * "data1=1 data2=2".
 */
package jsched.samples.twostage;

public class Main {
  static class Data {
    int value;
  }

  static final Object lock1 = new Object();
  static final Object lock2 = new Object();
  static final Data data1 = new Data();
  static final Data data2 = new Data();

  static class Writer extends Thread {
    Writer() {
      super("writer");
    }

    @Override
    public void run() {
      synchronized (lock1) {
        data1.value = 1;
      }
      // BUG: the pair is inconsistent here; both stages should be one atomic action.
      synchronized (lock2) {
        data2.value = data1.value + 1;
      }
    }
  }

  static class Reader extends Thread {
    Reader(String name) {
      super(name);
    }

    @Override
    public void run() {
      int seen1;
      int seen2;
      synchronized (lock1) {
        if (data1.value == 0) {
          return; // nothing written yet
        }
        seen1 = data1.value;
      }
      synchronized (lock2) {
        seen2 = data2.value;
      }
      if (seen2 != seen1 + 1) {
        throw new AssertionError("inconsistent pair: data1=" + seen1 + " data2=" + seen2);
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Thread writer = new Writer();
    Thread reader1 = new Reader("reader-1");
    Thread reader2 = new Reader("reader-2");
    writer.start();
    reader1.start();
    reader2.start();
    writer.join();
    reader1.join();
    reader2.join();
    int value1;
    int value2;
    synchronized (lock1) {
      value1 = data1.value;
    }
    synchronized (lock2) {
      value2 = data2.value;
    }
    System.out.println("data1=" + value1 + " data2=" + value2);
  }
}
