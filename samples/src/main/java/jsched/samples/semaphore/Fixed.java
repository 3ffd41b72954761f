/*
 * semaphore (correct variant): every acquire() matched by exactly one release().
 *
 * Same program as Main, but the skip branch only returns and leaves the release to the finally
 * block, so the semaphore never has more than 1 permit and one worker at a time uses the
 * converter.
 *
 * Expected jsched outcome: never fails (exit status 0); prints
 * "converted 4 documents, at most 1 at a time".
 */
package jsched.samples.semaphore;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

public class Fixed {
  static final int CONVERTERS = 1;

  static class Converter {
    final Semaphore permits = new Semaphore(CONVERTERS);
    final AtomicInteger users = new AtomicInteger();
    final ConcurrentHashMap.KeySetView<Integer, Boolean> converted = ConcurrentHashMap.newKeySet();
  }

  static class Worker extends Thread {
    private final Converter converter;
    private final int[] documents;
    private final int preparation;
    private long setupChecksum;

    Worker(String name, Converter converter, int preparation, int... documents) {
      super(name);
      this.converter = converter;
      this.preparation = preparation;
      this.documents = documents;
    }

    @Override
    public void run() {
      setUp();
      try {
        for (int document : documents) {
          convert(document);
        }
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
    }

    private void convert(int document) throws InterruptedException {
      converter.permits.acquire();
      try {
        int users = converter.users.incrementAndGet();
        if (users > CONVERTERS) {
          throw new AssertionError(users + " users of the converter, at most " + CONVERTERS);
        }
        if (converter.converted.contains(document)) {
          // nothing to do: the finally block gives the converter back
          converter.users.decrementAndGet();
          return;
        }
        converter.converted.add(document);
        converter.users.decrementAndGet();
      } finally {
        converter.permits.release();
      }
    }

    /** Local preparation (a table checksum) without any synchronization. */
    private void setUp() {
      long sum = 0;
      for (int i = 0; i < preparation; i++) {
        sum = sum * 31 + i;
      }
      setupChecksum = sum;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Converter converter = new Converter();
    Worker[] workers = {
      new Worker("worker-1", converter, 0, 1, 2),
      new Worker("worker-2", converter, 200_000, 1, 3),
      new Worker("worker-3", converter, 1_000_000, 4),
    };
    for (Worker worker : workers) {
      worker.start();
    }
    for (Worker worker : workers) {
      worker.join();
    }
    int count = converter.converted.size();
    if (count != 4) {
      throw new AssertionError(count + " documents converted, expected 4");
    }
    System.out.println("converted " + count + " documents, at most " + CONVERTERS + " at a time");
  }
}
