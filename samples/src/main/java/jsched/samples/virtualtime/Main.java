/*
 * virtualtime: a cache entry used after its lease has run out.
 *
 * Models: a configuration cache whose entries live for 100 ms (a lease with a deadline read from
 * System.nanoTime()). Main stores the entry "config" and starts a reader and a cleaner. The
 * reader looks the entry up (reloading it from the source if it has expired), pauses 100 ms with
 * Thread.sleep and looks it up again. The cleaner paces itself with a 100 ms timed wait on its
 * own monitor (nothing ever notifies it), measured with nanoTime in a deadline loop, and then
 * removes the expired entries. Clocks, sleep and timed waits are the point of this program; it
 * breaks the samples' rule against timing logic on purpose.
 *
 * Bug: the reader asks whether the entry is fresh (isFresh) and then fetches its value (value) in
 * two synchronized calls: a check-then-act on time. When the cleaner's wait runs out and it removes
 * the expired entry while the reader sits between its check and its fetch, value() returns null
 * and the reader dereferences it. Needs a scheduler that owns time: the clocks the program reads
 * must advance with the sleeps and timeouts it schedules, and the clock must be allowed to pass
 * the cleaner's deadline while the reader, still runnable, is between its two calls (a real JVM
 * can deschedule a thread for that long on a loaded machine). With real clocks and sleeps that
 * take no time the cleaner never finds the entry expired before the reader is done with it.
 *
 * Shows as: NullPointerException escaping the reader thread (jsched exit status 3). Correct runs
 * print "config has 9 chars, cleaner removed 1 expired entry". (In plain runs the reader's check
 * and fetch are microseconds apart at the start of the entry's 100 ms lease.)
 */
package jsched.samples.virtualtime;

import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

public class Main {
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

    synchronized boolean isFresh(String key) {
      Entry entry = entries.get(key);
      return entry != null && !entry.expiredAt(System.nanoTime());
    }

    synchronized String value(String key) {
      Entry entry = entries.get(key);
      return entry == null ? null : entry.value;
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

    /** BUG: the freshness check and the fetch are two synchronized calls. */
    private String lookUp(String key) {
      if (cache.isFresh(key)) {
        return cache.value(key); // null if the cleaner removed the entry since isFresh
      }
      return load(key);
    }

    @Override
    public void run() {
      length = lookUp(KEY).length();
      try {
        Thread.sleep(TTL_MS);
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
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
      try {
        pause();
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
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
