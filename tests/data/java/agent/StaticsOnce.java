/**
 * Each execution must see its own statics (iterations=N loads the program again): the static
 * counter is 1 in every execution, and a thread the program starts sees the same.
 */
public class StaticsOnce {
  static int runs;
  static final Object lock = new Object();

  public static void main(String[] args) throws InterruptedException {
    synchronized (lock) {
      if (++runs != 1) throw new AssertionError("statics carried over: runs = " + runs);
    }
    Thread t = new Thread(() -> {
      synchronized (lock) {
        if (runs != 1) throw new AssertionError("thread sees runs = " + runs);
      }
    });
    t.start();
    t.join();
    System.out.println("statics fresh");
  }
}
