/*
 * volatilecounter: a lost update on a volatile counter.
 *
 * Models: a web site's view counter for its home page. Two request handlers serve 4 requests each;
 * for each request a handler reads the site's volatile `open` flag and its volatile `homePage`
 * setting, and counts a view of the home page with `hits++` on a volatile int. Handler 1 serves
 * the home page first and handler 2 last, 2 times each.
 *
 * Bug: volatile makes each read and each write of hits visible, but hits++ is still a read and a
 * separate write. When the scheduler switches threads after one handler has read hits and the
 * other handler reads it too before the first one writes, both write the same value and one view
 * is lost. Needs volatile field accesses to be scheduling points (agent option
 * accesses=volatile): with no scheduling point between the read and the write the bug cannot
 * show.
 *
 * Shows as: main joins the handlers and finds hits=3 -> AssertionError thrown by main (jsched exit
 * status 3). Correct runs print "hits=4". (Handler 2 first does some local computation without any
 * synchronization, so in plain runs handler 1 has counted its views before handler 2 starts.)
 */
package jsched.samples.volatilecounter;

public class Main {
  static class Site {
    volatile boolean open = true;
    volatile String homePage = "/";
    volatile int hits;
  }

  static class Handler extends Thread {
    private final Site site;
    private final String[] requests;
    private final boolean warmUp;
    private long setupChecksum;

    Handler(String name, Site site, boolean warmUp, String... requests) {
      super(name);
      this.site = site;
      this.warmUp = warmUp;
      this.requests = requests;
    }

    @Override
    public void run() {
      if (warmUp) {
        setUp();
      }
      for (String path : requests) {
        if (site.open && path.equals(site.homePage)) {
          site.hits++; // BUG: a read and a separate write, not one atomic step
        }
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
    Site site = new Site();
    Handler handler1 = new Handler("handler-1", site, false, "/", "/", "/about", "/news");
    Handler handler2 = new Handler("handler-2", site, true, "/faq", "/about", "/", "/");
    handler1.start();
    handler2.start();
    handler1.join();
    handler2.join();
    int hits = site.hits;
    if (hits != 4) {
      throw new AssertionError("hits=" + hits + ", expected 4");
    }
    System.out.println("hits=" + hits);
  }
}
