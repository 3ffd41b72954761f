/*
 * semaphore: a permit released twice.
 *
 * Models: a document converter that one thread at a time may use, guarded by a Semaphore with 1
 * permit; an AtomicInteger counts the threads using it, and a user that finds another one there
 * reports the overload. Three workers convert documents: worker 1 documents 1 and 2, worker 2
 * documents 1 and 3 (document 1 was queued twice), worker 3 document 4. A worker skips a
 * document that is already converted (the set of converted documents comes from
 * ConcurrentHashMap.newKeySet()).
 *
 * Bug: the skip branch gives the permit back early with release(), and the finally block releases
 * it again. The second worker to reach document 1 skips it, and from then on the semaphore has 2
 * permits. When that worker is then pre-empted inside the converter (its next document) while
 * another worker still has a document to convert, two threads use the converter at once: one
 * pre-emption, a depth-2 bug for PCT.
 *
 * Shows as: AssertionError ("2 users") in the worker that comes in second (jsched exit status 3).
 * Correct runs print "converted 4 documents, at most 1 at a time". (Workers 2 and 3 first do some
 * local computation without any synchronization, worker 3 longer, so in plain runs each comes
 * when the one before is done.)
 */
package jsched.samples.semaphore;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

public class Main {
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
          // nothing to do: give the converter back early
          converter.users.decrementAndGet();
          converter.permits.release(); // BUG: the finally block releases the permit again
          return;
        }
        converter.converted.add(document);
        converter.users.decrementAndGet();
      } finally {
        converter.permits.release();
      }
    }

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps this worker behind the others.
     */
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
