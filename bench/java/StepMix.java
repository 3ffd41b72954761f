import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;

// Ordinary concurrent code between scheduling points: how much real time one scheduling point
// stands for. Each workload runs N rounds and prints its elapsed real time; under jsched the
// report's scheduling_points for the same N gives the time per point (bench/step_time.sh).
public class StepMix {
  public static void main(String[] args) throws Exception {
    final String which = args[0];
    final int n = Integer.parseInt(args[1]);
    final int reps = args.length > 2 ? Integer.parseInt(args[2]) : 1;
    long best = Long.MAX_VALUE;
    for (int r = 0; r < reps; r++) {  // the best of reps: a warmed-up JVM, as in a long suite
      long t0 = RealClock.nanos();
      switch (which) {
        case "pipeline" -> pipeline(n);
        case "cache" -> cache(n);
        case "executor" -> executor(n);
        case "monitor" -> monitor(n);
        default -> throw new IllegalArgumentException(which);
      }
      best = Math.min(best, RealClock.nanos() - t0);
    }
    System.out.println("elapsed_ns " + best);
  }

  // A producer formats records, a consumer parses and aggregates them in a map.
  static void pipeline(int n) throws InterruptedException {
    LinkedBlockingQueue<String> q = new LinkedBlockingQueue<>(64);
    Map<String, Long> totals = new HashMap<>();
    Thread consumer = new Thread(() -> {
      try {
        for (int i = 0; i < n; i++) {
          String[] parts = q.take().split(",");
          totals.merge(parts[0], Long.parseLong(parts[1]), Long::sum);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    consumer.start();
    for (int i = 0; i < n; i++) q.put("key" + (i % 17) + "," + i);
    consumer.join();
    if (totals.size() != Math.min(n, 17)) throw new AssertionError(totals.size());
  }

  // Threads look up and fill a concurrent cache, with a counter of misses.
  static void cache(int n) throws InterruptedException {
    ConcurrentHashMap<Integer, String> cache = new ConcurrentHashMap<>();
    AtomicLong misses = new AtomicLong();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 3; t++) {
      final int seed = t;
      Thread th = new Thread(() -> {
        for (int i = 0; i < n; i++) {
          int key = (i * 31 + seed) % 500;
          cache.computeIfAbsent(key, k -> {
            misses.incrementAndGet();
            return Integer.toHexString(k * 7919);
          });
        }
      });
      threads.add(th);
      th.start();
    }
    for (Thread th : threads) th.join();
    if (cache.size() > 500) throw new AssertionError(cache.size());
  }

  // Small tasks on a fixed pool, their results collected through futures.
  static void executor(int n) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    List<Future<Integer>> results = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      final int x = i;
      results.add(pool.submit(() -> Integer.toString(x * x).length()));
    }
    long sum = 0;
    for (Future<Integer> f : results) sum += f.get();
    pool.shutdown();
    if (sum <= 0) throw new AssertionError(sum);
  }

  // A bank of accounts behind one monitor, with a little arithmetic in each critical section.
  static void monitor(int n) throws InterruptedException {
    final long[] accounts = new long[16];
    final Object lock = new Object();
    Runnable body = () -> {
      for (int i = 0; i < n; i++) {
        synchronized (lock) {
          int from = i % 16, to = (i * 7 + 3) % 16;
          accounts[from] -= i % 100;
          accounts[to] += i % 100;
        }
      }
    };
    Thread a = new Thread(body), b = new Thread(body);
    a.start();
    b.start();
    a.join();
    b.join();
    long sum = 0;
    for (long v : accounts) sum += v;
    if (sum != 0) throw new AssertionError(sum);
  }
}
