package findings;

/**
 * A circular buffer of one producer and two consumers whose read index is volatile but read
 * and advanced in two steps: both consumers can take the same slot. Each consumer takes one
 * element; under jsched most executions see one element taken twice and main's assertion
 * throws; a plain JVM seldom does. With argument "fixed" a take holds the buffer's lock; with
 * "quiet" the bug stays but main does not check.
 */
public class RingBuffer {
  static final class Ring {
    final Object[] slots = new Object[4];
    volatile int head;
    volatile int tail;

    void put(Object o) {
      slots[tail % slots.length] = o;
      tail = tail + 1;
    }

    Object take() {
      while (head == tail) Thread.yield();
      int h = head;
      Object o = slots[h % slots.length];
      head = h + 1;
      return o;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    final boolean fixed = args.length > 0 && args[0].equals("fixed");
    final boolean quiet = args.length > 0 && args[0].equals("quiet");
    final Ring r = new Ring();
    final Object[] taken = new Object[2];
    r.put("a");
    r.put("b");
    Thread[] consumers = new Thread[2];
    for (int c = 0; c < 2; ++c) {
      final int mine = c;
      consumers[c] =
          new Thread(
              () -> {
                if (fixed) {
                  synchronized (r) {
                    taken[mine] = r.take();
                  }
                } else {
                  taken[mine] = r.take();
                }
              });
      consumers[c].start();
    }
    for (Thread t : consumers) t.join();
    if (taken[0] == taken[1] && !quiet) throw new AssertionError("both consumers took " + taken[0]);
  }
}
