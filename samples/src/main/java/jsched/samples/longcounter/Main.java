/*
 * longcounter: a lost update on a plain long counter.
 *
 * Models: a server's statistics. Two request handlers serve 3 requests each and count every
 * request served with `served++` on a plain (not volatile) long field of a shared Stats object.
 * Main joins both handlers and checks the total.
 *
 * Bug: served++ is a read of the field, an add and a separate write, with no lock. When the
 * scheduler switches threads after one handler has read the counter and the other handler reads
 * it too before the first one writes, both write the same value and one request is lost. The
 * read and the write are plain field accesses: the bug needs them to be scheduling points (agent
 * option accesses=all); with the default accesses=volatile the handlers contain no scheduling
 * point at all and each runs its loop in one step. (A plain long may even be written in two
 * halves, JLS 17.7; the lost update needs no such tearing.)
 *
 * Shows as: main joins the handlers and finds served < 6 -> AssertionError thrown by main (jsched
 * exit status 3). Correct runs print "served=6". (Handler 2 first does some local computation
 * without any synchronization, so in plain runs handler 1 has counted its requests before
 * handler 2 starts.)
 */
package jsched.samples.longcounter;

public class Main {
  static class Stats {
    long served; // BUG: plain field, updated without a lock
  }

  static class Handler extends Thread {
    private final Stats stats;
    private final int requests;
    private final boolean warmUp;
    private long setupChecksum;

    Handler(String name, Stats stats, int requests, boolean warmUp) {
      super(name);
      this.stats = stats;
      this.requests = requests;
      this.warmUp = warmUp;
    }

    @Override
    public void run() {
      if (warmUp) {
        setUp();
      }
      for (int i = 0; i < requests; i++) {
        stats.served++; // BUG: read, add, write; not one atomic step
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
    Handler handler1 = new Handler("handler-1", stats, 3, false);
    Handler handler2 = new Handler("handler-2", stats, 3, true);
    handler1.start();
    handler2.start();
    handler1.join();
    handler2.join();
    long served = stats.served;
    if (served != 6) {
      throw new AssertionError("served=" + served + ", expected 6");
    }
    System.out.println("served=" + served);
  }
}
