import java.util.concurrent.locks.LockSupport;

// Thread.getState() under control: the JVM sees every controlled thread that waits in the
// model, or for its turn, as RUNNABLE (it sits in jsched's native code), so a loop that polls
// for WAITING (guava's AbstractFutureTest does, with LockSupport.getBlocker) polled for ever.
// Each state a loop waits for here must come, and the call lets the polled thread run.
public class GetState {
  static volatile boolean done;

  public static void main(String[] args) throws Exception {
    final Object blocker = new Object();
    Thread parked = new Thread(() -> {
      while (!done) LockSupport.park(blocker);
    });
    if (parked.getState() != Thread.State.NEW) throw new AssertionError("not NEW before start");
    parked.start();
    while (!(parked.getState() == Thread.State.WAITING && LockSupport.getBlocker(parked) == blocker)) {
      if (parked.getState() == Thread.State.TERMINATED) throw new AssertionError("parked ended");
      Thread.yield();
    }
    done = true;
    LockSupport.unpark(parked);
    while (parked.getState() != Thread.State.TERMINATED) Thread.yield();

    final Object lock = new Object();
    Thread blocked = new Thread(() -> {
      synchronized (lock) {
      }
    });
    synchronized (lock) {
      blocked.start();
      while (blocked.getState() != Thread.State.BLOCKED) Thread.yield();
    }
    blocked.join();

    Thread sleeper = new Thread(() -> {
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        // woken by main
      }
    });
    sleeper.start();
    while (sleeper.getState() != Thread.State.TIMED_WAITING) Thread.yield();
    sleeper.interrupt();
    sleeper.join();
    if (sleeper.getState() != Thread.State.TERMINATED) throw new AssertionError("not TERMINATED");
    System.out.println("state ok");
  }
}
