import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

// Thread.stop() of threads that wait (up to JDK 19): in sleep, Object.wait, join, a monitor
// another thread holds, a queue's take and a condition's await. The JVM's stop wakes each as an
// interrupt would and throws ThreadDeath in it as it returns to Java (the one blocked on a
// monitor gets it once it holds the monitor). In the last two it escapes from the middle of
// java.util.concurrent, whose finally then releases a lock not held again: the JVM's answer is
// ThreadDeath or IllegalMonitorStateException, whichever comes out. Every stopped thread ends.
public class StopWaiting {
  static final Object lock = new Object();
  static final Object held = new Object();
  static final Map<String, String> ends = new TreeMap<>();

  interface Body { void run() throws Exception; }

  static Thread waiter(String name, Body body) {
    Thread t = new Thread(() -> {
      try {
        body.run();
        end(name, "returned");
      } catch (Throwable e) {
        end(name, e instanceof ThreadDeath ? "ThreadDeath" : e.getClass().getSimpleName());
      }
    }, name);
    t.start();
    return t;
  }

  static void end(String name, String how) {
    synchronized (ends) { ends.put(name, how); }
  }

  static void awaitWaiting(Thread t) {
    for (Thread.State s = t.getState(); s != Thread.State.WAITING
        && s != Thread.State.TIMED_WAITING && s != Thread.State.BLOCKED; s = t.getState()) {
      Thread.yield();
    }
  }

  @SuppressWarnings("removal")
  public static void main(String[] args) throws Exception {
    BlockingQueue<Object> q = new ArrayBlockingQueue<>(1);
    ReentrantLock rl = new ReentrantLock();
    Condition never = rl.newCondition();
    Thread sleeper = waiter("sleeper", () -> Thread.sleep(1_000_000));
    Thread waiting = waiter("waiter", () -> {
      synchronized (lock) {
        while (true) lock.wait();  // a spurious wake-up waits again
      }
    });
    Thread joiner = waiter("joiner", () -> sleeper.join());
    Thread taker = waiter("taker", () -> q.take());
    Thread awaiter = waiter("awaiter", () -> {
      rl.lock();
      try {
        while (true) never.awaitUninterruptibly();
      } finally {
        rl.unlock();
      }
    });
    Thread[] all;
    synchronized (held) {
      Thread blocked = waiter("blocked", () -> {
        synchronized (held) {
          end("blocked got in", "yes");
        }
      });
      // The joiner first: stopped, not woken by the sleeper's end.
      all = new Thread[] {joiner, sleeper, waiting, taker, awaiter, blocked};
      for (Thread t : all) awaitWaiting(t);
      try {
        for (Thread t : all) t.stop();
      } catch (UnsupportedOperationException e) {
        if (Runtime.version().feature() < 20) throw e;
        System.out.println("stop unsupported");
        System.exit(0);
      }
    }
    for (Thread t : all) t.join();
    synchronized (ends) {
      for (Map.Entry<String, String> e : ends.entrySet()) {
        String how = e.getValue();
        if (e.getKey().equals("taker") || e.getKey().equals("awaiter"))
          how = how.equals("ThreadDeath") || how.equals("IllegalMonitorStateException") ? "ended" : how;
        System.out.println(e.getKey() + ": " + how);
      }
    }
  }
}
