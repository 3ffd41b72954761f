/**
 * Hangs inside a synchronized block: a worker takes a lock and spins on a plain flag nobody sets,
 * with no scheduling point, while main waits to join it.
 */
public class SpinHoldingLock {
  static final Object lock = new Object();
  static boolean stop;
  static long spins;

  public static void main(String[] args) throws InterruptedException {
    Thread worker =
        new Thread(
            () -> {
              synchronized (lock) {
                while (!stop) ++spins;
              }
            });
    worker.start();
    worker.join();
  }
}
