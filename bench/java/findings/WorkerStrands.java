package findings;

import java.util.concurrent.CountDownLatch;

/**
 * Every execution throws in a worker that another thread waits for: a loader fails before it
 * counts down the latch a consumer waits on, so the consumer is stranded (on a plain JVM it waits
 * for ever: the bare loop hangs and its fixed twin's loop stands in). The failing worker runs
 * compiled code only up to its throw, so what jsched does in it after the throw (the finding's
 * report) is all that runs there. With argument "fixed" or "quiet" the loader counts down
 * instead of throwing (the same work without the finding).
 */
public class WorkerStrands {
  public static void main(String[] args) throws InterruptedException {
    final boolean fails = args.length == 0;
    final CountDownLatch loaded = new CountDownLatch(1);
    final int[] value = {0};
    Thread consumer =
        new Thread(
            () -> {
              try {
                loaded.await();
                value[0]++;
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    Thread loader =
        new Thread(
            () -> {
              if (fails) throw new IllegalStateException("the loader failed before it loaded");
              loaded.countDown();
            });
    consumer.start();
    loader.start();
    consumer.join();
    loader.join();
  }
}
