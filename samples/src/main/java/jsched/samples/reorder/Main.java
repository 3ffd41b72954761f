/*
 * reorder: two fields that must change together, written and read one at a time.
 *
 * Models: the "reorder" benchmark. A setter thread moves the pair (a, b) from (0, 0) to (1, -1)
 * by writing a, then b; a checker thread (after some local preparation without synchronization)
 * counts its check (a synchronized counter), reads a, then b, and expects one of the two
 * consistent states. Each field has its own tiny synchronized
 * getter and setter, on its own lock, so every single access is race-free.
 *
 * Bug: the pair as a whole is not protected. Each read and write is its own synchronized block,
 * so the scheduler can switch threads between the setter's two writes or between the checker's
 * two reads (at a monitorexit), and the checker sees (1, 0) or (0, -1).
 *
 * Shows as: AssertionError thrown by the checker thread (jsched exit status 3). Correct runs print
 * "a=1 b=-1 checks=1".
 */
package jsched.samples.reorder;

public class Main {
  static final Object lockA = new Object();
  static final Object lockB = new Object();
  static int a;
  static int b;

  static void setA(int value) {
    synchronized (lockA) {
      a = value;
    }
  }

  static void setB(int value) {
    synchronized (lockB) {
      b = value;
    }
  }

  static int getA() {
    synchronized (lockA) {
      return a;
    }
  }

  static int getB() {
    synchronized (lockB) {
      return b;
    }
  }

  /** Counts the checks made; only the checker updates it. */
  static class CheckCounter {
    private int checks;

    synchronized void countCheck() {
      checks++;
    }

    synchronized int checks() {
      return checks;
    }
  }

  static class Setter extends Thread {
    Setter() {
      super("setter");
    }

    @Override
    public void run() {
      // BUG: two independent writes; the pair is inconsistent in between.
      setA(1);
      setB(-1);
    }
  }

  static class Checker extends Thread {
    private final CheckCounter counter;
    private long setupChecksum;

    Checker(CheckCounter counter) {
      super("checker");
      this.counter = counter;
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
      counter.countCheck();
      // BUG: two independent reads; the pair may change in between.
      int seenA = getA();
      int seenB = getB();
      boolean before = seenA == 0 && seenB == 0;
      boolean after = seenA == 1 && seenB == -1;
      if (!before && !after) {
        throw new AssertionError("inconsistent pair: a=" + seenA + " b=" + seenB);
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Thread setter = new Setter();
    CheckCounter counter = new CheckCounter();
    Thread checker = new Checker(counter);
    setter.start();
    checker.start();
    setter.join();
    checker.join();
    System.out.println("a=" + getA() + " b=" + getB() + " checks=" + counter.checks());
  }
}
