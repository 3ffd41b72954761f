// Two threads doing N synchronized increments each: 4N scheduling points (monitor enter and
// exit) under jsched. Prints the elapsed time of the increments.
public class SyncCounter {
  static int count;
  static final Object lock = new Object();

  public static void main(String[] args) throws Exception {
    final int n = Integer.parseInt(args[0]);
    Runnable body = () -> {
      for (int i = 0; i < n; i++) {
        synchronized (lock) {
          count++;
        }
      }
    };
    Thread a = new Thread(body), b = new Thread(body);
    long t0 = RealClock.nanos();
    a.start();
    b.start();
    a.join();
    b.join();
    long t1 = RealClock.nanos();
    if (count != 2 * n) throw new AssertionError(count);
    System.out.println("elapsed_ns " + (t1 - t0));
  }
}
