package lifecycle;

/**
 * The body of the framework tests' twins: threads that add one each to a counter, with its lock
 * (correct) or without (a lost update jsched must find).
 */
final class Twins {
  private Twins() {}

  static final class Counter {
    volatile int value;
  }

  /** The counter after `threads` threads each added one. */
  static int count(int threads, boolean locked) throws InterruptedException {
    Counter c = new Counter();
    Runnable add =
        locked
            ? () -> {
              synchronized (c) {
                c.value++;
              }
            }
            : () -> c.value++;
    inThreads(threads, add);
    return c.value;
  }

  /** Runs `body` in `threads` threads started together, and waits for them. */
  static void inThreads(int threads, Runnable body) throws InterruptedException {
    Thread[] all = new Thread[threads];
    for (int i = 0; i < threads; i++) {
      all[i] = new Thread(body);
      all[i].start();
    }
    for (Thread t : all) t.join();
  }
}
