/*
 * barrier: a write placed after CyclicBarrier.await() instead of before the barrier trips.
 *
 * Models: two workers compute a sum in two phases. In each phase a worker reads its two inputs
 * (an AtomicIntegerArray), weighs them (local computation) and adds its partial result to a shared
 * accumulator (an AtomicInteger), then waits at a CyclicBarrier of 2 parties. The barrier action
 * records the accumulator as the phase's sum. The accumulator must be cleared between phases;
 * worker 0, the coordinator, does that.
 *
 * Bug: the coordinator clears the accumulator after its barrier.await() returns (a misplaced
 * write), not in the barrier action, which runs before either worker is released. When the barrier
 * of phase 0 trips and the scheduler lets worker 1 read its phase-1 inputs and add its partial
 * before the coordinator clears the accumulator, worker 1's partial is wiped and the barrier
 * action of phase 1 records a stale, too small sum.
 *
 * Shows as: main joins the workers and finds phase sums 10 and 11 instead of 10 and 26 ->
 * AssertionError thrown by main (jsched exit status 3). Correct runs print "phase sums 10 26".
 * (Weighing an input is about 10 ms of local computation without any synchronization, so in
 * plain runs the coordinator gets a processor and clears the accumulator long before worker 1 has
 * weighed its phase-1 inputs, even when the two share one core.)
 */
package jsched.samples.barrier;

import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

public class Main {
  static final int WORKERS = 2;
  static final int PHASES = 2;

  static class Computation {
    /** Inputs of worker w in phase p: elements 4p + 2w and 4p + 2w + 1. */
    final AtomicIntegerArray inputs = new AtomicIntegerArray(new int[] {1, 2, 3, 4, 5, 6, 7, 8});

    final AtomicInteger accumulator = new AtomicInteger();
    final AtomicIntegerArray sums = new AtomicIntegerArray(PHASES);
    final AtomicInteger phase = new AtomicInteger();
    final CyclicBarrier barrier =
        new CyclicBarrier(WORKERS, () -> sums.set(phase.getAndIncrement(), accumulator.get()));
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
          if (index == 0) {
            computation.accumulator.set(0); // BUG: the other worker may already have added
          }
        }
      } catch (InterruptedException | BrokenBarrierException e) {
        throw new IllegalStateException(e);
      }
    }

    /**
     * Local computation without any synchronization (about 10 ms): invisible to jsched, but in
     * plain runs it keeps worker 1 busy after the barrier, for longer than a time slice, while the
     * coordinator clears the accumulator.
     */
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
