/*
 * deadlockjoin: two threads that end up joining each other.
 *
 * Models: two workers each compute part of the sum 1 + ... + 8 (worker 1 adds 1..6, worker 2 adds
 * 7..8, each into its own synchronized accumulator). When a worker is done it publishes itself on
 * a shared board and asks the board for its partner; the worker that finds its partner already
 * published is the "second" one, so it joins the partner and combines the two halves.
 *
 * Bug: publishing and asking for the partner are two separate synchronized calls. When the
 * scheduler switches threads after the first worker has published (at the monitorexit) and the
 * other worker publishes too before either asks, both find their partner published, both
 * consider themselves second, and each joins the other.
 *
 * Shows as: deadlock, the two workers in Thread.join on each other and main in join (jsched exit
 * status 4). Correct runs print "total=36".
 */
package jsched.samples.deadlockjoin;

import java.util.ArrayList;
import java.util.List;

public class Main {
  static class Board {
    private final List<Worker> published = new ArrayList<>();
    private int total = -1;

    synchronized void publish(Worker worker) {
      published.add(worker);
    }

    /** The other published worker, or null if the caller is the only one so far. */
    synchronized Worker partnerOf(Worker worker) {
      for (Worker other : published) {
        if (other != worker) {
          return other;
        }
      }
      return null;
    }

    synchronized void setTotal(int total) {
      this.total = total;
    }

    synchronized int total() {
      return total;
    }
  }

  /** A worker's private scratch space for computing its part. */
  static class Accumulator {
    private int sum;

    synchronized void add(int value) {
      sum += value;
    }

    synchronized int sum() {
      return sum;
    }
  }

  static class Worker extends Thread {
    private final Board board;
    private final int from;
    private final int to;
    private int part;

    Worker(String name, Board board, int from, int to) {
      super(name);
      this.board = board;
      this.from = from;
      this.to = to;
    }

    @Override
    public void run() {
      Accumulator accumulator = new Accumulator();
      for (int i = from; i <= to; i++) {
        accumulator.add(i);
      }
      part = accumulator.sum();
      // BUG: publish and partnerOf should be one atomic step.
      board.publish(this);
      Worker partner = board.partnerOf(this);
      if (partner != null) {
        try {
          partner.join();
        } catch (InterruptedException e) {
          throw new IllegalStateException("interrupted", e);
        }
        board.setTotal(part + partner.part);
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Board board = new Board();
    Worker first = new Worker("worker-1", board, 1, 6);
    Worker second = new Worker("worker-2", board, 7, 8);
    first.start();
    second.start();
    first.join();
    second.join();
    if (board.total() != 36) {
      throw new AssertionError("total=" + board.total() + ", expected 36");
    }
    System.out.println("total=" + board.total());
  }
}
