/*
 * mixeddeadlock (correct variant): the cache monitor and the metrics lock taken in one order.
 *
 * Same program as Main, but the reporter's snapshot enters the cache's monitor before it locks
 * the metrics, the order in which the handler's cache.get() takes them. With one global order
 * (cache, then metrics) neither thread can hold one while waiting for the other one's, and the
 * snapshot still sees misses and entries that agree.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "hits=1 misses=2 entries=2".
 */
package jsched.samples.virtual.mixeddeadlock;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

public class Fixed {
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
      synchronized (cache) { // the cache's monitor first, as in cache.get()
        lock.lock();
        try {
          return new Snapshot(hits, misses, cache.size());
        } finally {
          lock.unlock();
        }
      }
    }
  }

  static class Cache {
    private final Map<String, String> entries = new HashMap<>(); // guarded by this
    private final Metrics metrics;

    Cache(Metrics metrics) {
      this.metrics = metrics;
    }

    // calls into the metrics, which take their own lock, while holding the cache monitor
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
