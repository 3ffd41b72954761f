import java.lang.reflect.Method;

// Main joins a virtual thread jsched does not see (started by reflection) that runs only once
// main waits in its join: the carrier (the only one, jdk.virtualThreadScheduler.parallelism=1)
// is held by another such thread until then. The verdict is an error (threads jsched does not
// see), never a deadlock of main's join nor a hang.
public class VirtualJoinLate {
  static volatile boolean ran;

  public static void main(String[] args) throws Exception {
    if (Runtime.version().feature() < 21) {
      System.out.println("no virtual threads before JDK 21");
      return;
    }
    Method start = Thread.class.getMethod("startVirtualThread", Runnable.class);
    final Thread main = Thread.currentThread();
    start.invoke(
        null,
        (Runnable)
            () -> {
              while (main.getState() != Thread.State.WAITING) Thread.onSpinWait();
            });
    Thread late = (Thread) start.invoke(null, (Runnable) () -> ran = true);
    late.join();
    System.out.println(ran ? "joined" : "joined too early");
  }
}
