package findings;

import java.util.ArrayDeque;

/**
 * A racy queue: a queue whose every method is synchronized, used with a check-then-act. Two
 * consumers each find the queue not empty and poll; there is one item, so one of them gets
 * null and main's assertion throws. A plain JVM seldom interleaves the check and the poll;
 * under jsched most executions do. With argument "fixed" each consumer checks and polls under
 * the queue's lock; with "quiet" the bug stays but main does not check.
 */
public class CheckThenPoll {
  static final class Queue {
    private final ArrayDeque<Object> items = new ArrayDeque<>();

    synchronized boolean isEmpty() {
      return items.isEmpty();
    }

    synchronized Object poll() {
      return items.poll();
    }

    synchronized void add(Object o) {
      items.add(o);
    }
  }

  public static void main(String[] args) throws InterruptedException {
    final boolean fixed = args.length > 0 && args[0].equals("fixed");
    final boolean quiet = args.length > 0 && args[0].equals("quiet");
    final Queue q = new Queue();
    final int[] nulls = new int[1];
    Runnable consume =
        () -> {
          Object got = null;
          boolean tried;
          if (fixed) {
            synchronized (q) {
              tried = !q.isEmpty();
              if (tried) got = q.poll();
            }
          } else {
            tried = !q.isEmpty();
            if (tried) got = q.poll();
          }
          if (tried && got == null) {
            synchronized (nulls) {
              nulls[0]++;
            }
          }
        };
    Thread producer = new Thread(() -> q.add("item"));
    Thread c1 = new Thread(consume);
    Thread c2 = new Thread(consume);
    producer.start();
    producer.join();
    c1.start();
    c2.start();
    c1.join();
    c2.join();
    if (nulls[0] != 0 && !quiet) throw new AssertionError("a consumer polled an empty queue");
  }
}
