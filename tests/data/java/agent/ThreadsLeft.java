/**
 * Prints how many threads the JVM has, then leaves three threads waiting for ever and ends
 * with a finding: `deadlock` (main waits too) or `hang` (main spins without a scheduling
 * point). Run as several executions in one JVM, the count stays flat when each finding ends its
 * execution's threads, and grows by four per execution when they are left behind.
 */
public class ThreadsLeft {
  static boolean stop;

  public static void main(String[] args) throws InterruptedException {
    System.out.println("threads " + Thread.getAllStackTraces().size());
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
