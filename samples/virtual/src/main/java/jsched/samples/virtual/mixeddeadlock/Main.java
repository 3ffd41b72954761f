/*
 * mixeddeadlock: a virtual and a platform thread take a monitor and a ReentrantLock in opposite
 * orders.
 *
 * Models: a server's cache (synchronized methods: its monitor guards the entries) and its metrics
 * (counters guarded by a ReentrantLock). A request handler, a virtual thread, looks up three keys;
 * cache.get() records each hit or miss in the metrics and, on a miss, loads and stores the value,
 * all inside the cache's monitor. A metrics reporter, a platform thread (Thread.ofPlatform()),
 * takes a snapshot: under the metrics lock it reads the counters and the cache's size, so that
 * misses and entries agree. Main joins both and checks the snapshot and the final counts.
 *
 * Bug: lock-order inversion across the two kinds of thread and lock. The handler holds the cache
 * monitor, then takes the metrics lock; the reporter holds the metrics lock, then enters the
 * cache monitor (size()). When the scheduler switches threads after the handler has entered get()
 * and before it locks the metrics, and the reporter then locks the metrics, each holds what the
 * other one needs.
 *
 * Shows as: deadlock, the handler parked in ReentrantLock.lock, the reporter blocked entering the
 * cache's monitor and main blocked in join (jsched exit status 4). Correct runs print
 * "hits=1 misses=2 entries=2". (The reporter first formats a header without any synchronization:
 * invisible to jsched, but in plain runs the handler is done before it takes the snapshot.)
 */
package jsched.samples.virtual.mixeddeadlock;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

public class Main {
  record Snapshot(int hits, int misses, int entries) {}

  static class Metrics {
    private final ReentrantLock lock = new ReentrantLock();
    private int hits; // hits and misses guarded by lock
    private int misses;

    void record(boolean hit) {
      lock.lock();
      try {
        if (hit) {
          hits++;
        } else {
          misses++;
        }
      } finally {
        lock.unlock();
      }
    }

    Snapshot snapshot(Cache cache) {
      lock.lock();
      try {
        // the cache's size read under the metrics lock, so that it agrees with the miss count
        return new Snapshot(hits, misses, cache.size());
      } finally {
        lock.unlock();
      }
    }
  }

  static class Cache {
    private final Map<String, String> entries = new HashMap<>(); // guarded by this
    private final Metrics metrics;

    Cache(Metrics metrics) {
      this.metrics = metrics;
    }

    // BUG: calls into the metrics, which take their own lock, while holding the cache monitor.
    synchronized String get(String key) {
      String value = entries.get(key);
      metrics.record(value != null);
      if (value == null) {
        value = "value of " + key; // loading it
        entries.put(key, value);
      }
      return value;
    }

    synchronized int size() {
      return entries.size();
    }
  }

  static long headerChecksum;

  /** The reporter's header: local work (a checksum) without any synchronization. */
  static void formatHeader() {
    long sum = 0;
    for (int i = 0; i < 20_000_000; i++) {
      sum = sum * 31 + i;
    }
    headerChecksum = sum;
  }

  public static void main(String[] args) throws InterruptedException {
    Metrics metrics = new Metrics();
    Cache cache = new Cache(metrics);
    Snapshot[] reported = new Snapshot[1];
    Thread handler = Thread.ofVirtual().name("handler").start(() -> {
      for (String key : new String[] {"a", "b", "a"}) {
        cache.get(key);
      }
    });
    Thread reporter = Thread.ofPlatform().name("reporter").start(() -> {
      formatHeader();
      reported[0] = metrics.snapshot(cache);
    });
    handler.join();
    reporter.join();
    Snapshot last = metrics.snapshot(cache);
    if (reported[0].misses() != reported[0].entries() || !last.equals(new Snapshot(1, 2, 2))) {
      throw new AssertionError("reported " + reported[0] + ", then " + last);
    }
    System.out.println(
        "hits=" + last.hits() + " misses=" + last.misses() + " entries=" + last.entries());
  }
}
