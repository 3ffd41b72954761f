/*
 * semaphore: a permit released twice.
 *
 * Models: a document converter that at most two threads may use at a time, guarded by a
 * Semaphore with 2 permits; an AtomicInteger counts the threads using it, and a user that finds
 * more than 2 (itself included) reports the overload. Three workers convert documents: worker 1
 * documents 1 and 2, worker 2 documents 1 and 3 (document 1 was queued twice), worker 3 document
 * 4. A worker skips a document that is already converted (the set of converted documents comes
 * from ConcurrentHashMap.newKeySet()); two workers that check document 1 before either has added
 * it both convert it, which is harmless.
 *
 * Bug: the skip branch gives the permit back early with release(), and the finally block releases
 * it again. This happens only when a worker checks document 1 after the other one has added it;
 * from then on the semaphore has 3 permits. When, in addition, the scheduler lets the skipping
 * worker go on to its second document while the other two workers are still using the converter,
 * three threads use it at once.
 *
 * Shows as: AssertionError ("3 users") in the worker that comes in third (jsched exit status 3).
 * Correct runs print "converted 4 documents, at most 2 at a time". (Worker 3 first does some local
 * computation without any synchronization, so in plain runs it comes when the others are done.)
 */
package jsched.samples.semaphore;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

public class Main {
  static final int CONVERTERS = 2;

  static class Converter {
    final Semaphore permits = new Semaphore(CONVERTERS);
    final AtomicInteger users = new AtomicInteger();
    final ConcurrentHashMap.KeySetView<Integer, Boolean> converted = ConcurrentHashMap.newKeySet();
  }

  static class Worker extends Thread {
    private final Converter converter;
    private final int[] documents;
    private final boolean warmUp;
    private long setupChecksum;

    Worker(String name, Converter converter, boolean warmUp, int... documents) {
      super(name);
      this.converter = converter;
      this.warmUp = warmUp;
      this.documents = documents;
    }

    @Override
    public void run() {
      if (warmUp) {
        setUp();
      }
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
      for (int i = 0; i < 200_000; i++) {
        sum = sum * 31 + i;
      }
      setupChecksum = sum;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Converter converter = new Converter();
    Worker[] workers = {
      new Worker("worker-1", converter, false, 1, 2),
      new Worker("worker-2", converter, false, 1, 3),
      new Worker("worker-3", converter, true, 4),
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
