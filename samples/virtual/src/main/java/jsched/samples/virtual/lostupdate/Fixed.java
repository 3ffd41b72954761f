/*
 * lostupdate (correct variant): the increment is one synchronized method.
 *
 * Same program as Main, but Stats has a synchronized recordVisit() that reads and writes the
 * counter while holding the monitor once, so no other handler can record a visit between the
 * read and the write.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "visits=6".
 */
package jsched.samples.virtual.lostupdate;

public class Fixed {
  static final int HANDLERS = 3;
  static final int REQUESTS_PER_HANDLER = 2;
  /** The size of each handler's page (its rendering work). */
  static final int[] PAGE_SIZES = {100_000, 170_000, 290_000};

  static class Stats {
    private int visits;

    synchronized int getVisits() {
      return visits;
    }

    synchronized void recordVisit() {
      visits++;
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
        stats.recordVisit();
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
