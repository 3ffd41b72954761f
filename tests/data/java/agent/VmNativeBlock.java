import java.lang.reflect.Method;
import java.util.concurrent.CountDownLatch;

// A thread blocks for good inside a native method of the JVM's own, where JVMTI calls it
// RUNNABLE and not in native code (JDK 21+'s virtual-thread unblocker does so in
// VirtualThread.<clinit>): blocked outside jsched's view, so main goes on, not a hang after the
// watchdog's window. (Run with --add-opens java.base/java.lang.ref=ALL-UNNAMED.)
public class VmNativeBlock {
  public static void main(String[] args) throws Exception {
    Method wait = Class.forName("java.lang.ref.Reference")
                      .getDeclaredMethod("waitForReferencePendingList");
    wait.setAccessible(true);
    CountDownLatch started = new CountDownLatch(1);
    Thread t = new Thread(() -> {
      started.countDown();
      try {
        while (true) wait.invoke(null);  // a collection may end one wait: wait again
      } catch (ReflectiveOperationException e) {
        throw new AssertionError(e);
      }
    });
    t.setDaemon(true);
    t.start();
    started.await();
    System.out.println("vm-native ok");
  }
}
