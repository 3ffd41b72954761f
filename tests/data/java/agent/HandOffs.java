import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

// Two producers each fill two blocks of 500 numbers and hand them through a queue to main,
// which sums them: every element is touched by two threads, always ordered by the queue's put
// and take. Each thread then adds one to a plain static total without a lock: a lost update
// when two of them interleave there (AssertionError).
public class HandOffs {
  static final class Block {
    final int[] data = new int[500];

    void fill(int seed) {
      for (int i = 0; i < data.length; i++) data[i] = seed + i;
    }

    long sum() {
      long s = 0;
      for (int i = 0; i < data.length; i++) s += data[i];
      return s;
    }
  }

  static int total;

  public static void main(String[] args) throws Exception {
    BlockingQueue<Block> queue = new ArrayBlockingQueue<>(2);
    Runnable producer =
        () -> {
          for (int r = 0; r < 2; r++) {
            Block b = new Block();
            b.fill(r);
            try {
              queue.put(b);
            } catch (InterruptedException e) {
              return;
            }
          }
          total = total + 1;
        };
    Thread p1 = new Thread(producer), p2 = new Thread(producer);
    p1.start();
    p2.start();
    long sum = 0;
    for (int i = 0; i < 4; i++) sum += queue.take().sum();
    total = total + 1;
    p1.join();
    p2.join();
    if (sum != 4 * (499 * 500 / 2) + 2 * 500) throw new AssertionError("sum " + sum);
    if (total != 3) throw new AssertionError("lost update: total " + total);
  }
}
