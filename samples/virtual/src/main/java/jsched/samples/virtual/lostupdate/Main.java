/*
 * lostupdate: a counter bean whose getter and setter are each synchronized, used to count.
 *
 * Models: a small web server counts page visits in a Stats bean with a synchronized getter and a
 * synchronized setter. Three request handlers, each a virtual thread (Thread.ofVirtual()), serve
 * two requests each and record every visit with stats.setVisits(stats.getVisits() + 1). Main
 * joins the handlers and checks that all six visits were counted.
 *
 * Bug: the read-modify-write is two separately synchronized steps, not one atomic update. When
 * the scheduler switches threads between a handler's getVisits() and its setVisits() (at the
 * monitor exit of the getter or the monitor enter of the setter) and another handler records a
 * visit meanwhile, the first handler then writes back its stale value plus one: a visit is lost.
 *
 * Shows as: bug, an AssertionError "counted 5 visits, expected 6" (or fewer) thrown by main (jsched
 * exit status 3). Correct runs print "visits=6". (Each handler first renders its page, of a
 * different size for each, without any synchronization: invisible to jsched, but in plain runs it
 * spreads the few updates out so that they practically never overlap.)
 */
package jsched.samples.virtual.lostupdate;

public class Main {
  static final int HANDLERS = 3;
  static final int REQUESTS_PER_HANDLER = 2;
  /** The size of each handler's page (its rendering work). */
  static final int[] PAGE_SIZES = {100_000, 170_000, 290_000};

  static class Stats {
    private int visits;

    synchronized int getVisits() {
      return visits;
    }

    synchronized void setVisits(int visits) {
      this.visits = visits;
    }
  }

  static class Handler implements Runnable {
    private final Stats stats;
    private final int id;
    private long pageChecksum;

    Handler(Stats stats, int id) {
      this.stats = stats;
      this.id = id;
    }

    @Override
    public void run() {
      for (int request = 0; request < REQUESTS_PER_HANDLER; request++) {
        renderPage(request);
        // BUG: read and write are each synchronized, but the increment as a whole is not.
        stats.setVisits(stats.getVisits() + 1);
      }
    }

    /** Local work (a page checksum) without any synchronization. */
    private void renderPage(int request) {
      int size = PAGE_SIZES[id];
      long sum = id * 1000L + request;
      for (int i = 0; i < size; i++) {
        sum = sum * 31 + i;
      }
      pageChecksum = sum;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Stats stats = new Stats();
    Thread[] handlers = new Thread[HANDLERS];
    for (int i = 0; i < HANDLERS; i++) {
      handlers[i] = Thread.ofVirtual().name("handler-" + i).start(new Handler(stats, i));
    }
    for (Thread handler : handlers) {
      handler.join();
    }
    int expected = HANDLERS * REQUESTS_PER_HANDLER;
    int visits = stats.getVisits();
    if (visits != expected) {
      throw new AssertionError("counted " + visits + " visits, expected " + expected);
    }
    System.out.println("visits=" + visits);
  }
}
