package findings;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The shape of a racy-stack benchmark whose failure is thrown in a worker: a pusher and a popper
 * share a stack under a ReentrantLock, and the popper pops whenever the pusher has pushed once
 * (a flag that is never cleared), so it can pop more than was pushed. The popper then throws
 * while holding the lock, and the pusher waits for that lock for ever. Under jsched most
 * executions interleave the two and underflow; a plain JVM seldom does (the pusher is done
 * first). With argument "fixed" the popper pops only what is there; with "quiet" the bug stays
 * but the popper does not throw (what a finding costs is the difference).
 */
public class WorkerUnderflow {
  static final int SIZE = 5;

  public static void main(String[] args) throws InterruptedException {
    final boolean fixed = args.length > 0 && args[0].equals("fixed");
    final boolean quiet = args.length > 0 && args[0].equals("quiet");
    final ReentrantLock lock = new ReentrantLock();
    final int[] stack = new int[SIZE];
    final int[] top = {0};
    final boolean[] pushed = {false};
    Thread pusher =
        new Thread(
            () -> {
              for (int i = 0; i < SIZE; ++i) {
                lock.lock();
                stack[top[0]++] = i;
                pushed[0] = true;
                lock.unlock();
              }
            });
    Thread popper =
        new Thread(
            () -> {
              for (int i = 0; i < SIZE; ++i) {
                lock.lock();
                if (pushed[0] && (!fixed || top[0] > 0)) {
                  if (top[0] == 0) {
                    if (!quiet) throw new IllegalStateException("pop of an empty stack");
                  } else {
                    --top[0];
                  }
                }
                lock.unlock();
              }
            });
    pusher.start();
    popper.start();
    pusher.join();
    popper.join();
  }
}
