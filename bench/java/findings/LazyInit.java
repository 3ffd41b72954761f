package findings;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Four threads ask a lazily made singleton for itself; the check and the assignment are not
 * atomic, so two threads can both find it missing and both make one. Under jsched about half
 * the executions make two and main's assertion throws; a plain JVM seldom does. With argument
 * "fixed" the getter is synchronized; with "quiet" the bug stays but main does not check.
 */
public class LazyInit {
  static final AtomicInteger made = new AtomicInteger();
  static Object instance;

  static Object racy() {
    if (instance == null) {
      made.incrementAndGet();
      instance = new Object();
    }
    return instance;
  }

  static synchronized Object safe() {
    return racy();
  }

  public static void main(String[] args) throws InterruptedException {
    final boolean fixed = args.length > 0 && args[0].equals("fixed");
    final boolean quiet = args.length > 0 && args[0].equals("quiet");
    made.set(0);
    instance = null;
    Thread[] threads = new Thread[4];
    for (int i = 0; i < threads.length; ++i) {
      threads[i] = new Thread(fixed ? LazyInit::safe : LazyInit::racy);
      threads[i].start();
    }
    for (Thread t : threads) t.join();
    if (made.get() != 1 && !quiet) throw new AssertionError("made " + made.get() + " singletons, expected 1");
  }
}
