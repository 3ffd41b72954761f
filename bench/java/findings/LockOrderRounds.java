package findings;

/**
 * Ten rounds of a lock-order inversion between main and a thread it starts while holding the
 * first lock. A plain JVM almost never deadlocks (the new thread needs tens of microseconds to
 * reach its first lock, main needs a fraction of one); under jsched a round deadlocks whenever
 * the new thread is chosen before main takes its second lock, so nearly every execution does.
 * With argument "fixed" both take the locks in the same order.
 */
public class LockOrderRounds {
  public static void main(String[] args) throws InterruptedException {
    final boolean fixed = args.length > 0 && args[0].equals("fixed");
    for (int round = 0; round < 10; ++round) {
      final Object a = new Object();
      final Object b = new Object();
      Thread t =
          new Thread(
              () -> {
                synchronized (fixed ? b : a) {
                  synchronized (fixed ? a : b) {
                  }
                }
              });
      synchronized (b) {
        t.start();
        synchronized (a) {
        }
      }
      t.join();
    }
  }
}
