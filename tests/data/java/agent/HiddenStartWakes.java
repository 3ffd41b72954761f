import java.util.concurrent.CountDownLatch;

// A thread started where jsched does not hook the start (reflection, as JDK code starts its
// helpers) wakes main at once, while main waits for it right after starting it: for a moment
// main is blocked and the model knows no thread that could wake it, yet the JVM has the helper
// starting. Ten rounds, so that the moment comes up in every run.
public class HiddenStartWakes {
  public static void main(String[] args) throws Exception {
    for (int round = 0; round < 10; ++round) {
      CountDownLatch done = new CountDownLatch(1);
      Thread helper = new Thread(done::countDown);
      Thread.class.getMethod("start").invoke(helper);
      done.await();
    }
    System.out.println("woken 10 times");
  }
}
