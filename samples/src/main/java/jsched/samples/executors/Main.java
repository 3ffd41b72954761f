/*
 * executors: a fixed thread pool running Callables and Runnables (correct program, no bug).
 *
 * Models: main submits 6 Callable tasks (task n returns n * n) and 3 Runnable tasks (each counts a
 * CountDownLatch down) to a pool of 3 threads (Executors.newFixedThreadPool). Main waits on the
 * latch, collects the Callables' results with Future.get(), shuts the pool down and waits for it
 * to terminate (awaitTermination).
 *
 * For jsched: the pool's threads are started and blocked inside java.util.concurrent (the
 * pool's work queue, the futures, the latch); every interleaving must run to completion with no
 * report.
 *
 * Expected jsched outcome: never fails (exit status 0); prints
 * "sum of squares 1..6 = 91, 3 runnables done".
 */
package jsched.samples.executors;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

public class Main {
  public static void main(String[] args) throws InterruptedException, ExecutionException {
    ExecutorService pool = Executors.newFixedThreadPool(3);
    CountDownLatch runnablesDone = new CountDownLatch(3);
    AtomicInteger runs = new AtomicInteger();
    List<Future<Integer>> futures = new ArrayList<>();
    for (int i = 1; i <= 6; i++) {
      int n = i;
      Callable<Integer> square = () -> n * n;
      futures.add(pool.submit(square));
    }
    for (int i = 0; i < 3; i++) {
      pool.execute(
          () -> {
            runs.incrementAndGet();
            runnablesDone.countDown();
          });
    }
    runnablesDone.await();
    int sum = 0;
    for (Future<Integer> future : futures) {
      sum += future.get();
    }
    pool.shutdown();
    if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
      throw new AssertionError("the pool did not terminate");
    }
    if (sum != 91 || runs.get() != 3) {
      throw new AssertionError("sum " + sum + " and " + runs.get() + " runs, expected 91 and 3");
    }
    System.out.println("sum of squares 1..6 = " + sum + ", " + runs.get() + " runnables done");
  }
}
