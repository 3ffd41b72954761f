/*
 * volatilecounter (correct variant): an AtomicInteger instead of a volatile int.
 *
 * Same program as Main, but the view counter is an AtomicInteger and a view is counted with
 * incrementAndGet(), one atomic read-modify-write. The flag and the setting stay volatile fields.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "hits=4".
 */
package jsched.samples.volatilecounter;

import java.util.concurrent.atomic.AtomicInteger;

public class Fixed {
  static class Site {
    volatile boolean open = true;
    volatile String homePage = "/";
    final AtomicInteger hits = new AtomicInteger();
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
          site.hits.incrementAndGet();
        }
      }
    }

    /** Local preparation (a table checksum) without any synchronization. */
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
    int hits = site.hits.get();
    if (hits != 4) {
      throw new AssertionError("hits=" + hits + ", expected 4");
    }
    System.out.println("hits=" + hits);
  }
}
