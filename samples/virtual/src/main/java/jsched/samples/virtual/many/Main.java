/*
 * many: thousands of virtual threads doing a little synchronized and atomic work (correct).
 *
 * Models: a fan-out of many small jobs, one thread each, as virtual threads make cheap. Main
 * starts N threads (default 10000; args[0] gives N; args[1] "platform" starts platform threads
 * instead, for comparison). Job i adds i to a shared AtomicLong, counts itself in a
 * ConcurrentHashMap by i % 10 (merge), and appends i to a shared ArrayList inside a synchronized
 * block. Main joins every thread and checks the sum, the ten counts and that the list holds each
 * job exactly once.
 *
 * No bug: every shared update is atomic (the AtomicLong, ConcurrentHashMap.merge, the list only
 * under its monitor), and join() orders every job's writes before main's checks, whatever the
 * interleaving.
 *
 * Expected jsched outcome: never fails (exit status 0); prints
 * "virtual threads=10000 sum=49995000 buckets=10" (with the default N).
 */
package jsched.samples.virtual.many;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

public class Main {
  public static void main(String[] args) throws InterruptedException {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    boolean platform = args.length > 1 && args[1].equals("platform");
    Thread.Builder builder = platform ? Thread.ofPlatform() : Thread.ofVirtual();

    AtomicLong sum = new AtomicLong();
    ConcurrentHashMap<Integer, Integer> buckets = new ConcurrentHashMap<>();
    List<Integer> done = new ArrayList<>(); // guarded by itself
    Thread[] threads = new Thread[n];
    for (int i = 0; i < n; i++) {
      int job = i;
      threads[i] = builder.start(() -> {
        sum.addAndGet(job);
        buckets.merge(job % 10, 1, Integer::sum);
        synchronized (done) {
          done.add(job);
        }
      });
    }
    for (Thread thread : threads) {
      thread.join();
    }

    long expectedSum = (long) n * (n - 1) / 2;
    if (sum.get() != expectedSum) {
      throw new AssertionError("sum " + sum.get() + ", expected " + expectedSum);
    }
    for (int bucket = 0; bucket < Math.min(n, 10); bucket++) {
      int expected = n / 10 + (bucket < n % 10 ? 1 : 0);
      if (buckets.getOrDefault(bucket, 0) != expected) {
        throw new AssertionError("bucket " + bucket + " counted " + buckets.get(bucket)
            + " jobs, expected " + expected);
      }
    }
    boolean[] seen = new boolean[n];
    synchronized (done) {
      if (done.size() != n) {
        throw new AssertionError(done.size() + " jobs in the list, expected " + n);
      }
      for (int job : done) {
        if (seen[job]) {
          throw new AssertionError("job " + job + " is in the list twice");
        }
        seen[job] = true;
      }
    }
    System.out.println((platform ? "platform" : "virtual") + " threads=" + n + " sum="
        + sum.get() + " buckets=" + buckets.size());
  }
}
