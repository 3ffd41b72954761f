/*
 * barrier (correct variant): every write the next phase depends on happens before the barrier
 * trips.
 *
 * Same program as Main, but the barrier action records the phase's sum and clears the
 * accumulator itself. The action runs after both workers have added their partials and before
 * either is released, so no partial of the next phase can be wiped.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "phase sums 10 26".
 */
package jsched.samples.barrier;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

public class Fixed {
  static final int WORKERS = 2;
  static final int PHASES = 2;

  static class Computation {
    /** Inputs of worker w in phase p: elements 4p + 2w and 4p + 2w + 1. */
    final AtomicIntegerArray inputs = new AtomicIntegerArray(new int[] {1, 2, 3, 4, 5, 6, 7, 8});

    final AtomicInteger accumulator = new AtomicInteger();
    final AtomicIntegerArray sums = new AtomicIntegerArray(PHASES);
    final AtomicInteger phase = new AtomicInteger();
    final CyclicBarrier barrier =
        new CyclicBarrier(
            WORKERS, () -> sums.set(phase.getAndIncrement(), accumulator.getAndSet(0)));
  }

  static class Worker extends Thread {
    private final Computation computation;
    private final int index;
    private long workChecksum;

    Worker(Computation computation, int index) {
      super("worker-" + index);
      this.computation = computation;
      this.index = index;
    }

    @Override
    public void run() {
      try {
        for (int phase = 0; phase < PHASES; phase++) {
          int first = computation.inputs.get(4 * phase + 2 * index);
          int partial = weigh(first);
          int second = computation.inputs.get(4 * phase + 2 * index + 1);
          partial += weigh(second);
          computation.accumulator.addAndGet(partial);
          computation.barrier.await();
        }
      } catch (InterruptedException | BrokenBarrierException e) {
        throw new IllegalStateException(e);
      }
    }

    /** Local computation without any synchronization. */
    private int weigh(int value) {
      long sum = 0;
      for (int i = 0; i < 10_000_000; i++) {
        sum = sum * 31 + i;
      }
      workChecksum += sum;
      return value;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Computation computation = new Computation();
    Worker[] workers = new Worker[WORKERS];
    for (int i = 0; i < WORKERS; i++) {
      workers[i] = new Worker(computation, i);
    }
    for (Worker worker : workers) {
      worker.start();
    }
    for (Worker worker : workers) {
      worker.join();
    }
    int sum0 = computation.sums.get(0);
    int sum1 = computation.sums.get(1);
    if (sum0 != 10 || sum1 != 26) {
      throw new AssertionError("phase sums " + sum0 + " and " + sum1 + ", expected 10 and 26");
    }
    System.out.println("phase sums " + sum0 + " " + sum1);
  }
}
