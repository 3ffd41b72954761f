/*
 * varhandle: a lost update through VarHandles.
 *
 * Models: page-view statistics kept without locks: the total in an int field, accessed through a
 * VarHandle, and one count per page in an int[], accessed through an array-element VarHandle
 * (MethodHandles.arrayElementVarHandle). Two request handlers serve the home page and the about
 * page once each and count each view.
 *
 * Bug: a view is counted with getVolatile and then setVolatile: each access is atomic and
 * visible, but the read and the write are two steps. When the scheduler switches threads after one
 * handler has read a count and the other handler reads the same count before the first one
 * writes, both write the same value and one view is lost (getAndAdd would be one atomic step).
 * Needs VarHandle accesses to be scheduling points: with no scheduling point between the read and
 * the write the bug cannot show.
 *
 * Shows as: main joins the handlers and finds a count too low -> AssertionError thrown by main
 * (jsched exit status 3). Correct runs print "hits=4 home=2 about=2". (Handler 2 first does some
 * local computation without any synchronization, so in plain runs handler 1 has counted its views
 * before handler 2 starts.)
 */
package jsched.samples.varhandle;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

public class Main {
  static final int HOME = 0;
  static final int ABOUT = 1;

  static class Stats {
    private static final VarHandle HITS;
    private static final VarHandle PAGE_HITS = MethodHandles.arrayElementVarHandle(int[].class);

    static {
      try {
        HITS = MethodHandles.lookup().findVarHandle(Stats.class, "hits", int.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private int hits; // accessed only through HITS
    private final int[] pageHits = new int[2]; // accessed only through PAGE_HITS

    void countView(int page) {
      // BUG: read, then write; another handler's update in between is overwritten.
      int total = (int) HITS.getVolatile(this);
      HITS.setVolatile(this, total + 1);
      int count = (int) PAGE_HITS.getVolatile(pageHits, page);
      PAGE_HITS.setVolatile(pageHits, page, count + 1);
    }

    int hits() {
      return (int) HITS.getVolatile(this);
    }

    int pageHits(int page) {
      return (int) PAGE_HITS.getVolatile(pageHits, page);
    }
  }

  static class Handler extends Thread {
    private final Stats stats;
    private final boolean warmUp;
    private final int[] pages;
    private long setupChecksum;

    Handler(String name, Stats stats, boolean warmUp, int... pages) {
      super(name);
      this.stats = stats;
      this.warmUp = warmUp;
      this.pages = pages;
    }

    @Override
    public void run() {
      if (warmUp) {
        setUp();
      }
      for (int page : pages) {
        stats.countView(page);
      }
    }

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps this handler behind the other one.
     */
    private void setUp() {
      long sum = 0;
      for (int i = 0; i < 200_000; i++) {
        sum = sum * 31 + i;
      }
      setupChecksum = sum;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Stats stats = new Stats();
    Handler handler1 = new Handler("handler-1", stats, false, HOME, ABOUT);
    Handler handler2 = new Handler("handler-2", stats, true, ABOUT, HOME);
    handler1.start();
    handler2.start();
    handler1.join();
    handler2.join();
    int hits = stats.hits();
    int home = stats.pageHits(HOME);
    int about = stats.pageHits(ABOUT);
    if (hits != 4 || home != 2 || about != 2) {
      throw new AssertionError(
          "hits=" + hits + " home=" + home + " about=" + about + ", expected 4, 2 and 2");
    }
    System.out.println("hits=" + hits + " home=" + home + " about=" + about);
  }
}
