/*
 * reorderN (correct variant): the pair written and read under one lock.
 *
 * Same program as Main (N threads, the argument, default 10: N-1 setters and a checker), but each
 * setter writes a and b, and the checker reads them, inside one synchronized block on a shared
 * lock. The fields stay volatile (so the same accesses are scheduling points), but no thread can
 * see the pair between a setter's two writes, nor change it between the checker's two reads.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "a=1 b=-1 setters=N-1"
 * ("a=1 b=-1 setters=9" for the default).
 */
package jsched.samples.reordern;

public class Fixed {
  static final Object LOCK = new Object();
  static volatile int a;
  static volatile int b;

  static class Setter extends Thread {
    Setter(int index) {
      super("setter-" + index);
    }

    @Override
    public void run() {
      synchronized (LOCK) {
        a = 1;
        b = -1;
      }
    }
  }

  static class Checker extends Thread {
    private long setupChecksum;

    Checker() {
      super("checker");
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
      int seenA;
      int seenB;
      synchronized (LOCK) {
        seenA = a;
        seenB = b;
      }
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
