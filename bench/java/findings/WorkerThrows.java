package findings;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Every execution throws, in a worker: two workers take turns at a ReentrantLock to count
 * tickets, and the second checks, still holding the lock, a total that the first can never have
 * reached (the check's bound is wrong: a bug that shows in every schedule). The worker that
 * throws leaves the lock held, so on a plain JVM the other waits for it for ever: the bare loop
 * hangs and its fixed twin's loop stands in. With argument "fixed" or "quiet" the check does
 * not throw and the lock is released (the same work without the finding).
 */
public class WorkerThrows {
  public static void main(String[] args) throws InterruptedException {
    final boolean check = args.length == 0;
    final ReentrantLock lock = new ReentrantLock();
    final int[] tickets = {0};
    Runnable count =
        () -> {
          for (int i = 0; i < 3; ++i) {
            lock.lock();
            tickets[0]++;
            lock.unlock();
          }
        };
    Thread counter = new Thread(count);
    Thread checker =
        new Thread(
            () -> {
              count.run();
              lock.lock();
              if (check && tickets[0] <= 6) throw new IllegalStateException("tickets " + tickets[0]);
              lock.unlock();
            });
    counter.start();
    checker.start();
    counter.join();
    checker.join();
  }
}
