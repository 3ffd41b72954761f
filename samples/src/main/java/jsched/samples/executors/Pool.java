/*
 * executors, Pool: a ForkJoinPool computing a RecursiveTask (correct program, no bug).
 *
 * Models: the sum of 1..64 computed by a RecursiveTask on a ForkJoinPool of 2 threads: a task
 * over more than 16 elements forks its left half, computes its right half and joins the left
 * half. Then main shuts the pool down and waits for it to terminate.
 *
 * For jsched: fork and join go through the pool's work-stealing queues, and a joining thread may
 * run other tasks or park; every interleaving must run to completion with no report.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "sum=2080".
 */
package jsched.samples.executors;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RecursiveTask;
import java.util.concurrent.TimeUnit;

public class Pool {
  static final int THRESHOLD = 16;

  static class Sum extends RecursiveTask<Integer> {
    private static final long serialVersionUID = 1L;

    private final int[] values;
    private final int from;
    private final int to;

    Sum(int[] values, int from, int to) {
      this.values = values;
      this.from = from;
      this.to = to;
    }

    @Override
    protected Integer compute() {
      if (to - from <= THRESHOLD) {
        int sum = 0;
        for (int i = from; i < to; i++) {
          sum += values[i];
        }
        return sum;
      }
      int middle = (from + to) / 2;
      RecursiveTask<Integer> left = new Sum(values, from, middle);
      left.fork();
      int right = new Sum(values, middle, to).compute();
      return left.join() + right;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    int[] values = new int[64];
    for (int i = 0; i < values.length; i++) {
      values[i] = i + 1;
    }
    ForkJoinPool pool = new ForkJoinPool(2);
    int sum = pool.invoke(new Sum(values, 0, values.length));
    pool.shutdown();
    if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
      throw new AssertionError("the pool did not terminate");
    }
    if (sum != 2080) {
      throw new AssertionError("sum=" + sum + ", expected 2080");
    }
    System.out.println("sum=" + sum);
  }
}
