// The path main takes depends on a system property, so a replay under another value departs
// from the recording: -Dpath=1 (the recorded path), 2 (yields between its steps), 3 (ends early).
public class DivergingPath {
  static final Object lock = new Object();
  static int n;

  public static void main(String[] args) throws InterruptedException {
    int path = Integer.getInteger("path", 1);
    Thread t = new Thread(() -> {
      for (int i = 0; i < 5; i++) {
        synchronized (lock) {
          n++;
        }
      }
    });
    t.start();
    for (int i = 0; i < (path == 3 ? 1 : 5); i++) {
      synchronized (lock) {
        n++;
      }
      if (path == 2) Thread.yield();
    }
    t.join();
  }
}
