import java.io.File;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

// A thread started where jsched does not hook the start (as in HiddenHelper) wakes the
// controlled main thread once a file the test makes appears, after a few milliseconds of real
// work; main waits for it with a timeout. The test holds the helper back meanwhile (the whole
// process stopped, or the helper starved of CPU): time it was not run was no chance to act, so
// main's wait must not time out.
public class HiddenHelperHeld {
  public static void main(String[] args) throws Exception {
    File go = new File(args[0]);
    CountDownLatch first = new CountDownLatch(1);
    CountDownLatch second = new CountDownLatch(1);
    Thread helper = new Thread(() -> {
      first.countDown();
      while (!go.exists()) Thread.onSpinWait();
      for (int i = 0; i < 5000; i++) go.exists();  // real time, without a scheduling point
      second.countDown();
    }, "held-helper");
    Thread.class.getMethod("start").invoke(helper);
    first.await();
    System.out.println("waiting");
    if (!second.await(5, TimeUnit.SECONDS)) throw new AssertionError("timed out while it was held");
    System.out.println("helper ok");
  }
}
