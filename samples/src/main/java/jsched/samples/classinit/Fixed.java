/*
 * classinit (correct variant): a static initializer that starts a thread using its own class.
 *
 * Models: a table of squares whose static initializer starts a "warmer" thread that sums the table
 * (say, to fill a cache), then fills the table and only then assigns it to the static field
 * SQUARES. Each step of the initializer is logged through a synchronized static method of a log
 * class that main initializes first. Main initializes the table by taking its warmer, and joins
 * the warmer afterwards.
 *
 * Correct under JVMS 5.5: the warmer's first use of Table (reading Table.SQUARES) finds Table being
 * initialized by another thread (main) and waits until that initialization is complete; it then
 * sees the filled table. The initializer does not wait for the warmer (no join in <clinit>), so
 * nothing waits in a circle, and main joins the warmer only after Table is initialized. Whatever
 * the interleaving, the warmer sums 10 squares to 285. A scheduler must treat the warmer as
 * blocked (not runnable) while main runs Table's initializer, and as runnable again once the
 * initializer is done; if it only sees the warmer stuck somewhere it cannot explain, it may wait
 * for it forever and report a hang.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "warmer saw 10 squares, sum 285".
 */
package jsched.samples.classinit;

public class Fixed {
  static class Log {
    private static int lines;

    static synchronized void record(String line) {
      lines++;
    }

    static synchronized int lines() {
      return lines;
    }
  }

  static class Table {
    static final Warmer WARMER;
    static final int[] SQUARES;

    static {
      WARMER = new Warmer();
      WARMER.start(); // not joined here: the warmer waits for this initializer to complete
      Log.record("table: warmer started");
      int[] squares = new int[10];
      for (int i = 0; i < squares.length; i++) {
        squares[i] = i * i;
      }
      Log.record("table: squares computed");
      SQUARES = squares;
    }
  }

  static class Warmer extends Thread {
    private int count;
    private int sum;

    Warmer() {
      super("warmer");
    }

    @Override
    public void run() {
      Log.record("warmer: started");
      int[] squares = Table.SQUARES; // waits until Table's initialization is complete
      int total = 0;
      for (int square : squares) {
        total += square;
      }
      count = squares.length;
      sum = total;
      Log.record("warmer: done");
    }

    int count() {
      return count;
    }

    int sum() {
      return sum;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    int before = Log.lines(); // initializes Log before Table
    Warmer warmer = Table.WARMER; // initializes Table, which starts the warmer
    warmer.join();
    int logged = Log.lines() - before;
    if (warmer.count() != 10 || warmer.sum() != 285 || logged != 4) {
      throw new AssertionError(
          "warmer saw " + warmer.count() + " squares, sum " + warmer.sum() + ", "
              + logged + " log lines");
    }
    System.out.println("warmer saw " + warmer.count() + " squares, sum " + warmer.sum());
  }
}
