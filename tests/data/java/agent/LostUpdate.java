// Read and write of a counter in separate synchronized blocks on different locks: lost
// updates under some schedules, caught by the final assertion.
public class LostUpdate {
  static int n;
  static final Object l1 = new Object(), l2 = new Object();
  public static void main(String[] args) throws Exception {
    Thread t1 = new Thread(() -> bump(l1));
    Thread t2 = new Thread(() -> bump(l2));
    t1.start();
    t2.start();
    t1.join();
    t2.join();
    if (n != 4) throw new AssertionError("lost update: n=" + n);
    System.out.println("n=" + n);
  }
  static void bump(Object lock) {
    for (int i = 0; i < 2; i++) {
      int v;
      synchronized (lock) { v = n; }
      synchronized (lock) { n = v + 1; }
    }
  }
}
