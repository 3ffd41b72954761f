/*
 * virtualtime (correct variant): one synchronized look-up, and clocks that agree with sleeps.
 *
 * Same program as Main, but the reader checks freshness and fetches the value in one synchronized
 * call (getIfFresh), so the cleaner cannot remove the entry in between. The reader and the cleaner
 * also check what the JVM promises about their pauses: after Thread.sleep(100) System.nanoTime()
 * has advanced by at least 100 ms and System.currentTimeMillis() by at least 99 (whole
 * milliseconds, and the two clocks may drift apart slightly); the entry, whose 100 ms lease
 * started before the sleep, is then stale; and after the cleaner's timed wait, which nothing
 * notifies and which ends once nanoTime has passed its deadline, currentTimeMillis has advanced by
 * at least 99 ms too. A scheduler that lets sleeps and timeouts take no time while the program
 * reads real clocks breaks these checks (a false AssertionError in the reader); one that owns a
 * virtual clock, advances it over every sleep and expired timeout and returns it from nanoTime and
 * currentTimeMillis keeps them.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "config has 9 chars, cleaner
 * removed 1 expired entry".
 */
package jsched.samples.virtualtime;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

public class Fixed {
  static final long TTL_MS = 100;
  static final long TTL_NANOS = TTL_MS * 1_000_000L;
  static final String KEY = "config";

  /** The source the cache is filled from (a stand-in for reading a file or a service). */
  static String load(String key) {
    return "v1:" + key;
  }

  static final class Entry {
    final String value;
    final long deadline; // System.nanoTime() value at which the entry expires

    Entry(String value, long deadline) {
      this.value = value;
      this.deadline = deadline;
    }

    boolean expiredAt(long now) {
      return now - deadline >= 0;
    }
  }

  static class Cache {
    private final Map<String, Entry> entries = new HashMap<>();

    synchronized void put(String key, String value) {
      entries.put(key, new Entry(value, System.nanoTime() + TTL_NANOS));
    }

    /** The value if the entry is there and fresh, else null: check and fetch in one call. */
    synchronized String getIfFresh(String key) {
      Entry entry = entries.get(key);
      if (entry == null || entry.expiredAt(System.nanoTime())) {
        return null;
      }
      return entry.value;
    }

    synchronized int removeExpired() {
      long now = System.nanoTime();
      int removed = 0;
      for (Iterator<Entry> it = entries.values().iterator(); it.hasNext(); ) {
        if (it.next().expiredAt(now)) {
          it.remove();
          removed++;
        }
      }
      return removed;
    }
  }

  static class Reader extends Thread {
    private final Cache cache;
    private int length;

    Reader(Cache cache) {
      super("reader");
      this.cache = cache;
    }

    private String lookUp(String key) {
      String value = cache.getIfFresh(key);
      return value != null ? value : load(key);
    }

    @Override
    public void run() {
      length = lookUp(KEY).length();
      long nanoStart = System.nanoTime();
      long millisStart = System.currentTimeMillis();
      try {
        Thread.sleep(TTL_MS);
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
      long sleptNanos = System.nanoTime() - nanoStart;
      long sleptMillis = System.currentTimeMillis() - millisStart;
      if (sleptNanos < TTL_NANOS) {
        throw new AssertionError(
            "Thread.sleep(" + TTL_MS + ") returned after " + sleptNanos + " ns of nanoTime");
      }
      if (sleptMillis < TTL_MS - 1) {
        throw new AssertionError(
            "Thread.sleep(" + TTL_MS + ") returned after " + sleptMillis
                + " ms of currentTimeMillis");
      }
      if (cache.getIfFresh(KEY) != null) {
        throw new AssertionError("entry still fresh " + sleptNanos + " ns into a 100 ms lease");
      }
      int again = lookUp(KEY).length();
      if (again != length) {
        throw new AssertionError("config changed from " + length + " to " + again + " chars");
      }
    }

    int length() {
      return length;
    }
  }

  static class Cleaner extends Thread {
    private final Cache cache;
    private final Object pacer = new Object(); // its own monitor, for the timed wait
    private int removed;

    Cleaner(Cache cache) {
      super("cleaner");
      this.cache = cache;
    }

    /** Waits TTL_MS on the pacer's monitor; nothing notifies it, the wait runs out. */
    private void pause() throws InterruptedException {
      synchronized (pacer) {
        long deadline = System.nanoTime() + TTL_NANOS;
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
          pacer.wait((left + 999_999) / 1_000_000);
        }
      }
    }

    @Override
    public void run() {
      long millisStart = System.currentTimeMillis();
      try {
        pause();
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
      long waitedMillis = System.currentTimeMillis() - millisStart;
      if (waitedMillis < TTL_MS - 1) {
        throw new AssertionError(
            "a " + TTL_MS + " ms timed wait ended after " + waitedMillis
                + " ms of currentTimeMillis");
      }
      removed = cache.removeExpired();
    }

    int removed() {
      return removed;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Cache cache = new Cache();
    cache.put(KEY, load(KEY));
    Reader reader = new Reader(cache);
    Cleaner cleaner = new Cleaner(cache);
    reader.start();
    cleaner.start();
    reader.join();
    cleaner.join();
    if (reader.length() != load(KEY).length()) {
      throw new AssertionError("reader saw " + reader.length() + " chars of config");
    }
    if (cleaner.removed() != 1) {
      throw new AssertionError("cleaner removed " + cleaner.removed() + " entries, expected 1");
    }
    System.out.println(
        "config has " + reader.length() + " chars, cleaner removed "
            + cleaner.removed() + " expired entry");
  }
}
