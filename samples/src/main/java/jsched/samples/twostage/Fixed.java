/*
 * twostage (correct variant): the two-stage update made atomic.
 *
 * Same program as Main, but the writer keeps lock1 while it takes lock2 and finishes stage 2, and
 * the readers likewise read data2 while still holding lock1. Everyone takes lock1 before lock2,
 * so there is no deadlock either, and no reader can observe the pair between the two stages.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "data1=1 data2=2".
 */
package jsched.samples.twostage;

public class Fixed {
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
        synchronized (lock2) {
          data2.value = data1.value + 1;
        }
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
        synchronized (lock2) {
          seen2 = data2.value;
        }
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
      synchronized (lock2) {
        value2 = data2.value;
      }
    }
    System.out.println("data1=" + value1 + " data2=" + value2);
  }
}
