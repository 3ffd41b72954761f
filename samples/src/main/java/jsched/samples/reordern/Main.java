/*
 * reorderN: two volatile fields that must change together, N-1 setters and one checker.
 *
 * Models: the "reorder" benchmark with a parameter for many-thread strategies. N threads (the
 * argument, at least 2, default 10): N-1 setter threads each move the pair (a, b) from (0, 0) to
 * (1, -1) by writing a = 1 and then b = -1, and one checker thread reads a and then b and expects
 * one of the two consistent states. a and b are static volatile fields, so each access is atomic
 * and visible, and each is a jsched scheduling point (accesses=volatile, the default). Main starts
 * the setters, then the checker, which first does some local preparation.
 *
 * Bug: the pair as a whole is not protected. When the scheduler switches threads between the
 * first setter's two writes and the checker reads both fields there, it sees (1, 0); when a setter
 * writes both fields between the checker's two reads while the pair was still (0, 0), the checker
 * sees (0, -1). Once any setter has written b, the pair stays (1, -1): only the first moments of
 * the run can show the bug, and the more setters there are, the more other threads a scheduler
 * must keep from running through them.
 *
 * Shows as: AssertionError thrown by the checker thread (jsched exit status 3). Correct runs print
 * "a=1 b=-1 setters=N-1" ("a=1 b=-1 setters=9" for the default). (In plain runs the setters have
 * finished before the checker's preparation ends.)
 */
package jsched.samples.reordern;

public class Main {
  static volatile int a;
  static volatile int b;

  static class Setter extends Thread {
    Setter(int index) {
      super("setter-" + index);
    }

    @Override
    public void run() {
      // BUG: two independent writes; the pair is inconsistent in between.
      a = 1;
      b = -1;
    }
  }

  static class Checker extends Thread {
    private long setupChecksum;

    Checker() {
      super("checker");
    }

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps this thread behind the setters started before it.
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
      // BUG: two independent reads; the pair may change in between.
      int seenA = a;
      int seenB = b;
      boolean before = seenA == 0 && seenB == 0;
      boolean after = seenA == 1 && seenB == -1;
      if (!before && !after) {
        throw new AssertionError("inconsistent pair: a=" + seenA + " b=" + seenB);
      }
    }
  }

  static int threadCount(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10;
    if (n < 2) {
      throw new IllegalArgumentException("N must be at least 2 (N-1 setters and a checker)");
    }
    return n;
  }

  public static void main(String[] args) throws InterruptedException {
    int n = threadCount(args);
    Setter[] setters = new Setter[n - 1];
    for (int i = 0; i < setters.length; i++) {
      setters[i] = new Setter(i + 1);
    }
    Checker checker = new Checker();
    for (Setter setter : setters) {
      setter.start();
    }
    checker.start();
    for (Setter setter : setters) {
      setter.join();
    }
    checker.join();
    System.out.println("a=" + a + " b=" + b + " setters=" + setters.length);
  }
}
