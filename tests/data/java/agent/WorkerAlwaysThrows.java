/**
 * A worker throws in every execution while main waits for it in join, and main's own catch
 * prints whatever ends it: under explore, each execution is a finding in the worker, and main,
 * whose execution the finding ended, must leave without a word.
 */
public class WorkerAlwaysThrows {
  static int rounds;

  public static void main(String[] args) throws InterruptedException {
    final Object lock = new Object();
    Thread worker =
        new Thread(
            () -> {
              synchronized (lock) {
                ++rounds;
              }
              throw new IllegalStateException("round " + rounds + " failed");
            });
    worker.start();
    try {
      synchronized (lock) {
        lock.wait(1000);
      }
      worker.join();
    } catch (Throwable t) {
      System.out.println("main caught " + t);
      throw t;
    }
  }
}
