/*
 * longcounter (correct variant): the counter is an AtomicLong.
 *
 * Same program as Main, but Stats.served is an AtomicLong and a request is counted with
 * incrementAndGet(), one atomic read-modify-write.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "served=6".
 */
package jsched.samples.longcounter;

import java.util.concurrent.atomic.AtomicLong;

public class Fixed {
  static class Stats {
    final AtomicLong served = new AtomicLong();
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
        stats.served.incrementAndGet();
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
    Stats stats = new Stats();
    Handler handler1 = new Handler("handler-1", stats, 3, false);
    Handler handler2 = new Handler("handler-2", stats, 3, true);
    handler1.start();
    handler2.start();
    handler1.join();
    handler2.join();
    long served = stats.served.get();
    if (served != 6) {
      throw new AssertionError("served=" + served + ", expected 6");
    }
    System.out.println("served=" + served);
  }
}
