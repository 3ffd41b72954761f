package findings;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stack whose top index is an AtomicInteger read and then set, not compare-and-set: two
 * pushers can both read the same top and one element is lost. Under jsched most executions
 * lose one (a switch between a get and its set) and main's assertion throws; a plain JVM
 * seldom does. With argument "fixed" a push claims its slot with getAndIncrement; with "quiet"
 * the bug stays but main does not check.
 */
public class RacyStack {
  static final class Stack {
    final Object[] slots = new Object[8];
    final AtomicInteger top = new AtomicInteger();

    void push(Object o, boolean fixed) {
      int i;
      if (fixed) {
        i = top.getAndIncrement();
      } else {
        i = top.get();
        top.set(i + 1);
      }
      slots[i] = o;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    final boolean fixed = args.length > 0 && args[0].equals("fixed");
    final boolean quiet = args.length > 0 && args[0].equals("quiet");
    final Stack s = new Stack();
    Thread[] pushers = new Thread[3];
    for (int t = 0; t < pushers.length; ++t) {
      final int mine = t;
      pushers[t] = new Thread(() -> s.push(mine, fixed));
      pushers[t].start();
    }
    for (Thread t : pushers) t.join();
    if (s.top.get() != pushers.length && !quiet)
      throw new AssertionError("stack holds " + s.top.get() + " elements, expected " + pushers.length);
  }
}
