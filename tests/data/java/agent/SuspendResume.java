import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

// Thread.suspend()/resume() of a controlled thread (guava's AbstractFutureTest suspends a
// waiter past its timeout): the suspended thread takes no step until resumed, its timed park
// included. The JVM's own suspend froze a thread the model then handed the turn to: a false
// hang. From JDK 20 on the JVM refuses both, under jsched too.
public class SuspendResume {
  static volatile long blockedNanos;

  @SuppressWarnings("removal")
  public static void main(String[] args) throws Exception {
    Thread waiter = new Thread(() -> {
      long start = System.nanoTime();
      LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(2));
      blockedNanos = System.nanoTime() - start;
    });
    waiter.start();
    while (waiter.getState() != Thread.State.TIMED_WAITING) Thread.yield();
    try {
      waiter.suspend();
    } catch (UnsupportedOperationException | NoSuchMethodError e) {
      if (Runtime.version().feature() < 20) throw e;
      waiter.join();
      System.out.println("suspend unsupported");
      return;
    }
    Thread.sleep(3500);
    waiter.resume();
    waiter.join();
    if (blockedNanos < TimeUnit.MILLISECONDS.toNanos(3500))
      throw new AssertionError("its park returned while it was suspended: " + blockedNanos);
    System.out.println("suspend ok");
  }
}
