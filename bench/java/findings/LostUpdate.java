package findings;

/**
 * Two threads add 100 each to a plain counter. A plain JVM seldom loses an update (the second
 * thread starts after the first is done); under jsched's default strategy, which may switch at
 * every access, nearly every execution loses one and main's assertion throws. With argument
 * "fixed" the additions are synchronized; with "quiet" the bug stays but main does not check
 * (the same executions without a finding: what a finding costs is the difference).
 */
public class LostUpdate {
  static int count;

  public static void main(String[] args) throws InterruptedException {
    final boolean fixed = args.length > 0 && args[0].equals("fixed");
    final boolean quiet = args.length > 0 && args[0].equals("quiet");
    final Object lock = new Object();
    count = 0;
    Runnable add =
        () -> {
          for (int i = 0; i < 100; ++i) {
            if (fixed) {
              synchronized (lock) {
                count++;
              }
            } else {
              count++;
            }
          }
        };
    Thread t1 = new Thread(add);
    Thread t2 = new Thread(add);
    t1.start();
    t2.start();
    t1.join();
    t2.join();
    if (count != 200 && !quiet) throw new AssertionError("lost update: count " + count + ", expected 200");
  }
}
