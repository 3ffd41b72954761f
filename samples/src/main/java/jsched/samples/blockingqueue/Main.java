/*
 * blockingqueue: producers and consumers around a bounded blocking queue (workload for overhead
 * measurements).
 *
 * Models: a compute pipeline. Two producers each make every second work item (item i belongs to
 * producer i % 2): a value from a long hash chain over the item number, mixed through a
 * substitution table. They pass the items through a bounded queue implemented with synchronized
 * + wait/notifyAll (waits in while loops); a producer that is done closes its end of the queue,
 * and take() returns null once the queue is empty and both producers are done. Two consumers run
 * a second hash chain over each value with a weight table and fold the results into local sums,
 * which they add to a shared result object at the end. All combinations are wrapping long sums,
 * so the printed checksum does not depend on the schedule.
 *
 * Shared variables: hot — the static substitution table `SBOX` and the weight table's array (read
 * in every round of the hash chains, tens of millions of reads); lukewarm — the queue's slots,
 * counters and the Item objects (a few accesses per item, under the queue's lock for the queue);
 * rare — the queue's `openProducers`, the Results fields (once per thread, under its lock) and
 * the static configuration `rounds` (read once per thread).
 *
 * A correct program (no bug), used to measure jsched's overhead: two monitor enters per item plus
 * waits and notifies, some ten to twenty thousand synchronization operations in all. Prints
 * "blockingqueue: result <checksum> (<N> items, 4 threads)". With -ea main checks that every
 * item was consumed exactly once and that the consumers saw the values the producers made.
 * Optional argument: number of items (default 3000).
 */
package jsched.samples.blockingqueue;

public class Main {
  static final int PRODUCERS = 2;
  static final int CONSUMERS = 2;
  static final int CAPACITY = 8;
  /** Rounds of each hash chain: a configuration static, read once per thread. */
  static int rounds = 20_000;
  static final int[] SBOX = new int[256];

  static final class Item {
    final int id;
    final long value;

    Item(int id, long value) {
      this.id = id;
      this.value = value;
    }
  }

  static final class BoundedQueue {
    private final Item[] slots = new Item[CAPACITY];
    private int head;
    private int count;
    private int openProducers = PRODUCERS;

    synchronized void put(Item item) throws InterruptedException {
      while (count == slots.length) {
        wait();
      }
      slots[(head + count) % slots.length] = item;
      count++;
      notifyAll();
    }

    /** The next item, or null once the queue is empty and every producer has closed. */
    synchronized Item take() throws InterruptedException {
      while (count == 0 && openProducers > 0) {
        wait();
      }
      if (count == 0) {
        return null;
      }
      Item item = slots[head];
      slots[head] = null;
      head = (head + 1) % slots.length;
      count--;
      notifyAll();
      return item;
    }

    synchronized void close() {
      openProducers--;
      notifyAll();
    }
  }

  /** Totals, added to once by every producer and consumer. */
  static final class Results {
    long produced;
    long consumedValues;
    long checksum;
    long idSum;
    int items;

    synchronized void addProduced(long valueSum) {
      produced += valueSum;
    }

    synchronized void addConsumed(long valueSum, long resultSum, long ids, int count) {
      consumedValues += valueSum;
      checksum += resultSum;
      idSum += ids;
      items += count;
    }
  }

  static final class Weights {
    final long[] table = new long[64];

    Weights() {
      long w = 0x243F6A8885A308D3L;
      for (int i = 0; i < table.length; i++) {
        w = w * 0x5851F42D4C957F2DL + 0x14057B7EF767814FL;
        table[i] = w | 1;
      }
    }
  }

  static final class Producer extends Thread {
    private final int index;
    private final int items;
    private final BoundedQueue queue;
    private final Results results;

    Producer(int index, int items, BoundedQueue queue, Results results) {
      super("producer-" + index);
      this.index = index;
      this.items = items;
      this.queue = queue;
      this.results = results;
    }

    @Override
    public void run() {
      int n = rounds;
      long sum = 0;
      try {
        for (int id = index; id < items; id += PRODUCERS) {
          long h = id * 0x9E3779B97F4A7C15L + 1;
          for (int r = 0; r < n; r++) {
            h ^= h >>> 31;
            h *= 0xBF58476D1CE4E5B9L;
            h += SBOX[(int) (h >>> 56)];
          }
          sum += h;
          queue.put(new Item(id, h));
        }
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
      results.addProduced(sum);
      queue.close();
    }
  }

  static final class Consumer extends Thread {
    private final BoundedQueue queue;
    private final Weights weights;
    private final Results results;

    Consumer(int index, BoundedQueue queue, Weights weights, Results results) {
      super("consumer-" + index);
      this.queue = queue;
      this.weights = weights;
      this.results = results;
    }

    @Override
    public void run() {
      int n = rounds;
      long values = 0;
      long checksum = 0;
      long ids = 0;
      int count = 0;
      try {
        for (Item item = queue.take(); item != null; item = queue.take()) {
          long h = item.value;
          for (int r = 0; r < n; r++) {
            h = (h ^ (h >>> 29)) * weights.table[(int) h & 63];
          }
          values += item.value;
          checksum += h;
          ids += item.id;
          count++;
        }
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
      results.addConsumed(values, checksum, ids, count);
    }
  }

  public static void main(String[] args) throws InterruptedException {
    int items = args.length > 0 ? Integer.parseInt(args[0]) : 3000;
    for (int i = 0; i < SBOX.length; i++) {
      SBOX[i] = (i * 167 + 13) & 255; // a permutation of 0..255
    }
    BoundedQueue queue = new BoundedQueue();
    Weights weights = new Weights();
    Results results = new Results();
    Thread[] threads = new Thread[PRODUCERS + CONSUMERS];
    for (int i = 0; i < PRODUCERS; i++) {
      threads[i] = new Producer(i, items, queue, results);
    }
    for (int i = 0; i < CONSUMERS; i++) {
      threads[PRODUCERS + i] = new Consumer(i, queue, weights, results);
    }
    for (Thread t : threads) {
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assert results.items == items : "consumed " + results.items + " of " + items + " items";
    assert results.idSum == (long) items * (items - 1) / 2 : "item numbers do not add up";
    assert results.consumedValues == results.produced : "consumed values differ from produced ones";
    System.out.println("blockingqueue: result " + Long.toHexString(results.checksum) + " (" + items
        + " items, " + threads.length + " threads)");
  }
}
