/*
 * deadlockjoin: two threads that end up joining each other.
 *
 * Models: a fork/join sum of 1 + ... + 8. The lead worker forks a helper thread for 7..8, adds
 * 1..6 itself (into its own synchronized accumulator), and then, like the helper when it is done,
 * publishes itself on a shared board and asks the board for its partner. The worker that finds its
 * partner already published considers itself the second one: it joins the partner and stores the
 * combined total.
 *
 * Bug: publishing and asking for the partner are two separate synchronized calls. When the
 * scheduler switches threads after one worker has published (at the monitorexit) and the other
 * worker publishes too before either asks, both find their partner published, both consider
 * themselves second, and each joins the other.
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
    private final Worker helper;
    private int part;

    /** A worker for from..to; if helper is not null, it is forked first. */
    Worker(String name, Board board, int from, int to, Worker helper) {
      super(name);
      this.board = board;
      this.from = from;
      this.to = to;
      this.helper = helper;
    }

    @Override
    public void run() {
      Accumulator accumulator = new Accumulator();
      if (helper != null) {
        helper.start();
      }
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

    Worker helper() {
      return helper;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Board board = new Board();
    Worker helper = new Worker("helper", board, 7, 8, null);
    Worker lead = new Worker("lead", board, 1, 6, helper);
    lead.start();
    lead.join();
    lead.helper().join();
    if (board.total() != 36) {
      throw new AssertionError("total=" + board.total() + ", expected 36");
    }
    System.out.println("total=" + board.total());
  }
}
