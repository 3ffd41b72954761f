/**
 * A thread that needs a class another thread is still initializing waits for it, in every
 * execution: X's initializer uses X again through Y (the initializing thread goes on) and has a
 * scheduling point before it sets X.value; a second thread reads X.value through Y meanwhile and
 * must see 42, never the 0 of a class half initialized. Prints "overlap" when the second thread
 * started while X was being initialized, and "waited ok" at the end of every execution.
 */
public class StaticsWait {
  static final Object lock = new Object();
  static volatile boolean readerStarted;

  static class X {
    static int value;

    static {
      Y.peek();  // X again, from its own initializer: no wait
      synchronized (lock) {
        if (readerStarted) System.out.println("overlap");
      }
      value = 42;
    }
  }

  static class Y {
    static int peek() {
      return X.value;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    int[] seen = new int[1];
    Thread reader = new Thread(() -> {
      readerStarted = true;
      seen[0] = Y.peek();
    });
    reader.start();
    int mine = Y.peek();
    reader.join();
    if (mine != 42 || seen[0] != 42)
      throw new AssertionError("saw X.value " + mine + " and " + seen[0]);
    System.out.println("waited ok");
  }
}
