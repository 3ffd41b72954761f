/*
 * rwcache: a read-mostly cache behind a ReentrantReadWriteLock.
 *
 * Models: a cache of computed values. get(key) looks the key up under the read lock; on a miss it
 * releases the read lock, takes the write lock, computes the value (an expensive step that must
 * run once per key; the cache counts how often it runs) and stores it. Client 1 gets "users" and
 * then "config"; client 2 gets "orders", "prices" and then "config".
 *
 * Bug: after a miss, get() takes the write lock and computes without looking the key up again
 * (a read lock cannot be upgraded, so there is a gap between the two locks). When the scheduler
 * switches threads after client 1 has missed "config" under the read lock and client 2 misses
 * it too before client 1 has stored it, both compute it and the second store overwrites the
 * first.
 *
 * Shows as: main joins the clients and finds 5 computations for 4 keys -> AssertionError thrown by
 * main (jsched exit status 3). Correct runs print "4 keys cached, 4 computations". (Client 2
 * first does some local computation without any synchronization, so in plain runs client 1 has
 * stored "config" before client 2 looks for it.)
 */
package jsched.samples.rwcache;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;

public class Main {
  static class Cache {
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final ReentrantReadWriteLock.ReadLock readLock = lock.readLock();
    private final ReentrantReadWriteLock.WriteLock writeLock = lock.writeLock();
    private final Map<String, String> values = new HashMap<>();
    private int computations; // guarded by writeLock

    String get(String key) {
      readLock.lock();
      try {
        String value = values.get(key);
        if (value != null) {
          return value;
        }
      } finally {
        readLock.unlock();
      }
      // BUG: another thread may have stored the value since the read lock was released; it is
      // computed again without looking.
      writeLock.lock();
      try {
        String value = compute(key);
        values.put(key, value);
        return value;
      } finally {
        writeLock.unlock();
      }
    }

    /** The expensive step; the caller holds the write lock. */
    private String compute(String key) {
      computations++;
      return key.toUpperCase(Locale.ROOT);
    }

    int size() {
      readLock.lock();
      try {
        return values.size();
      } finally {
        readLock.unlock();
      }
    }

    int computations() {
      writeLock.lock();
      try {
        return computations;
      } finally {
        writeLock.unlock();
      }
    }
  }

  static class Client extends Thread {
    private final Cache cache;
    private final String[] keys;
    private final boolean warmUp;
    private long setupChecksum;

    Client(String name, Cache cache, boolean warmUp, String... keys) {
      super(name);
      this.cache = cache;
      this.warmUp = warmUp;
      this.keys = keys;
    }

    @Override
    public void run() {
      if (warmUp) {
        setUp();
      }
      for (String key : keys) {
        String value = cache.get(key);
        if (!value.equals(key.toUpperCase(Locale.ROOT))) {
          throw new AssertionError("cache returned " + value + " for " + key);
        }
      }
    }

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps this client behind the other one.
     */
    private void setUp() {
      long sum = 0;
      for (int i = 0; i < 200_000; i++) {
        sum = sum * 31 + i;
      }
      setupChecksum = sum;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Cache cache = new Cache();
    Client client1 = new Client("client-1", cache, false, "users", "config");
    Client client2 = new Client("client-2", cache, true, "orders", "prices", "config");
    client1.start();
    client2.start();
    client1.join();
    client2.join();
    int size = cache.size();
    int computations = cache.computations();
    if (computations != size) {
      throw new AssertionError(computations + " computations for " + size + " keys");
    }
    System.out.println(size + " keys cached, " + computations + " computations");
  }
}
