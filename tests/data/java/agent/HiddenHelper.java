import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

// A thread started where jsched does not hook the start (through reflection here, as JDK code
// starts its helpers: a printer lookup that runs a command, the process reaper it then needs)
// wakes the controlled main thread after a moment of real work. jsched waits for it: neither a
// deadlock while main waits for ever, nor a timeout at once while it waits 5 s.
public class HiddenHelper {
  static volatile long sink;

  public static void main(String[] args) throws Exception {
    CountDownLatch first = new CountDownLatch(1);
    CountDownLatch second = new CountDownLatch(1);
    Thread helper = new Thread(() -> {
      work(200_000_000);
      first.countDown();
      work(200_000);  // well within the 50 ms jsched gives it, even on a loaded machine
      second.countDown();
    });
    Thread.class.getMethod("start").invoke(helper);
    first.await();
    if (!second.await(5, TimeUnit.SECONDS)) throw new AssertionError("timed out while it worked");
    System.out.println("helper ok");
  }

  // Real work without a scheduling point: no field access in the loop.
  static void work(int n) {
    long x = 0;
    for (int i = 0; i < n; i++) x += (long) i * i ^ (x >>> 3);
    sink = x;
  }
}
