/*
 * executors, Async: CompletableFuture stages (correct program, no bug).
 *
 * Models: three values computed asynchronously with CompletableFuture.supplyAsync on the default
 * executor (the common ForkJoinPool, or a new thread per task when the common pool has
 * parallelism 1, as on a 2-core machine), combined with thenCombine, scaled with thenApply and
 * awaited with join().
 *
 * For jsched: the stages complete in any order, and whichever thread completes a stage may run
 * the dependent stages; every interleaving must run to completion with no report.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "result=194".
 */
package jsched.samples.executors;

import java.util.concurrent.CompletableFuture;

public class Async {
  public static void main(String[] args) {
    CompletableFuture<Integer> answer = CompletableFuture.supplyAsync(() -> 6 * 7);
    CompletableFuture<Integer> thirty = CompletableFuture.supplyAsync(() -> 10 + 20);
    CompletableFuture<Integer> quarter = CompletableFuture.supplyAsync(() -> 100 / 4);
    int result =
        answer
            .thenCombine(thirty, Integer::sum)
            .thenCombine(quarter, Integer::sum)
            .thenApply(sum -> sum * 2)
            .join();
    if (result != 194) {
      throw new AssertionError("result=" + result + ", expected 194");
    }
    System.out.println("result=" + result);
  }
}
