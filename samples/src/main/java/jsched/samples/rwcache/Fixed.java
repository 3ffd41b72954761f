/*
 * rwcache (correct variant): look again under the write lock.
 *
 * Same program as Main, but after a miss get() looks the key up again once it holds the write
 * lock, and computes the value only if it is still missing. Whoever takes the write lock second
 * finds the value the first one stored.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "4 keys cached, 4 computations".
 */
package jsched.samples.rwcache;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.locks.ReentrantReadWriteLock;

public class Fixed {
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
      writeLock.lock();
      try {
        String value = values.get(key);
        if (value == null) {
          value = compute(key);
          values.put(key, value);
        }
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

    /** Local preparation (a table checksum) without any synchronization. */
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
