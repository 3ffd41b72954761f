/**
 * Prints how many threads the JVM has, then leaves three threads waiting for ever and ends
 * with a finding: `deadlock` (main waits too) or `hang` (main spins without a scheduling
 * point); or (`daemons`) starts three daemons that spin without a scheduling point and returns
 * (a hang when one of them gets the turn, else the daemons start after the execution is over). Run as several executions in one JVM, the count stays flat when each finding ends its
 * execution's threads, and grows by four per execution when they are left behind.
 */
public class ThreadsLeft {
  static boolean stop;

  public static void main(String[] args) throws InterruptedException {
    System.out.println("threads " + Thread.getAllStackTraces().size());
    if (args[0].equals("daemons")) {  // they spin with no scheduling point; main returns
      for (int i = 0; i < 3; i++) {
        Thread t = new Thread(() -> {
          while (!stop) {}
        });
        t.setDaemon(true);
        t.start();
      }
      return;
    }
    Object never = new Object();
    Object held = new Object();
    for (int i = 0; i < 3; i++) {
      Thread t = new Thread(() -> {
        synchronized (held) {
          synchronized (never) {
            try {
              for (;;) never.wait();
            } catch (InterruptedException e) {
              throw new IllegalStateException(e);
            }
          }
        }
      });
      t.start();
    }
    if (args[0].equals("hang")) {
      long n = 0;
      while (!stop) ++n;
      System.out.println(n);
    }
    synchronized (never) {
      for (;;) never.wait();
    }
  }
}
