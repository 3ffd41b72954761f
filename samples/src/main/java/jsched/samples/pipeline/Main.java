/*
 * pipeline: a three-stage pipeline whose channels skip "unneeded" notifications.
 *
 * Models: source -> channel1 -> doubler -> channel2 -> sink, one item. Each channel holds one item.
 * take() waits in a loop while the channel is empty and records that a taker is waiting; put()
 * only notifies when a taker was waiting, to save a notifyAll.
 *
 * Bug: put() asks hasWaitingTaker() in one synchronized call and stores the item (notifying only
 * if the answer was yes) in a second one. When the scheduler switches threads between the two
 * (after the first monitorexit) and the taker enters take() and waits, the put stores the item
 * without notifying: the taker sleeps forever, and so does every later stage.
 *
 * Shows as: deadlock, the doubler or the sink in Object.wait and main in join (jsched exit status
 * 4). Correct runs print "result=42".
 */
package jsched.samples.pipeline;

public class Main {
  static class Channel {
    private final String name;
    private Integer item;
    private boolean takerWaiting;

    Channel(String name) {
      this.name = name;
    }

    synchronized boolean hasWaitingTaker() {
      return takerWaiting;
    }

    void put(int value) {
      // BUG: the decision to notify is taken before, and apart from, the store.
      boolean wake = hasWaitingTaker();
      synchronized (this) {
        item = value;
        if (wake) {
          notifyAll();
        }
      }
    }

    synchronized int take() throws InterruptedException {
      while (item == null) {
        takerWaiting = true;
        wait();
      }
      takerWaiting = false;
      int value = item;
      item = null;
      return value;
    }

    @Override
    public String toString() {
      return name;
    }
  }

  static class Source extends Thread {
    private final Channel out;

    Source(Channel out) {
      super("source");
      this.out = out;
    }

    @Override
    public void run() {
      out.put(21);
    }
  }

  static class Doubler extends Thread {
    private final Channel in;
    private final Channel out;

    Doubler(Channel in, Channel out) {
      super("doubler");
      this.in = in;
      this.out = out;
    }

    @Override
    public void run() {
      try {
        out.put(2 * in.take());
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
    }
  }

  static class Sink extends Thread {
    private final Channel in;
    private int result;

    Sink(Channel in) {
      super("sink");
      this.in = in;
    }

    @Override
    public void run() {
      try {
        result = in.take();
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
    }

    int result() {
      return result;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Channel channel1 = new Channel("channel-1");
    Channel channel2 = new Channel("channel-2");
    Sink sink = new Sink(channel2);
    Doubler doubler = new Doubler(channel1, channel2);
    Source source = new Source(channel1);
    // The consumers first, so that they are normally already waiting when the item arrives.
    doubler.start();
    sink.start();
    source.start();
    source.join();
    doubler.join();
    sink.join();
    if (sink.result() != 42) {
      throw new AssertionError("result=" + sink.result() + ", expected 42");
    }
    System.out.println("result=" + sink.result());
  }
}
