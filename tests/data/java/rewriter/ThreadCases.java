// Thread operations through Thread, through subclass names (bridges) and through an
// interface; wait/notify in all three forms. Deterministic output.
public class ThreadCases {
  interface Startable { void start(); }

  static class Worker extends Thread implements Startable {
    volatile int done;
    public void run() {
      try {
        sleep(1);             // invokestatic Worker.sleep -> bridge, resolves to Thread
        Worker.yield();       // invokestatic Worker.yield -> bridge
      } catch (InterruptedException e) {
        throw new RuntimeException(e);
      }
      done = 1;
    }
  }

  static class Shadow extends Thread {
    static int calls;
    public static void sleep(long ms) { calls += (int) ms; }  // hides Thread.sleep(long)
  }

  static class BelowShadow extends Shadow {}

  static class NotAThread {  // same method names, unrelated class
    int joined;
    void join() { joined++; }
    void start() { joined += 10; }
  }

  public static void main(String[] args) throws Exception {
    Worker w = new Worker();
    w.start();                // invokevirtual Worker.start -> bridge -> threadStart
    w.join();                 // bridge -> threadJoin
    System.out.println("worker done=" + w.done);

    Worker w2 = new Worker();
    Startable s = w2;
    s.start();                // invokeinterface Startable.start -> bridge
    w2.join(10000);           // bridge -> threadJoinTimed
    w2.join(10000, 5);        // bridge -> threadJoinNanos
    System.out.println("interface start done=" + w2.done);

    NotAThread n = new NotAThread();
    n.start();
    n.join();
    System.out.println("not a thread " + n.joined);

    final Object lock = new Object();
    final int[] state = {0};
    Thread t = new Thread(() -> {
      synchronized (lock) {
        state[0] = 1;
        lock.notifyAll();
        while (state[0] != 2) {
          try { lock.wait(); } catch (InterruptedException e) { return; }
        }
        state[0] = 3;
        lock.notify();
      }
    });
    t.start();
    synchronized (lock) {
      while (state[0] != 1) lock.wait(1000);
      state[0] = 2;
      lock.notify();
      while (state[0] != 3) lock.wait(1000, 10);
    }
    t.join();
    System.out.println("handshake state=" + state[0]);

    Thread sleeper = new Thread(() -> {
      try {
        Thread.sleep(60000);
      } catch (InterruptedException e) {
        System.out.println("sleeper interrupted, flag=" + Thread.currentThread().isInterrupted());
      }
    });
    sleeper.start();
    sleeper.interrupt();
    sleeper.join();
    Thread.currentThread().interrupt();
    System.out.println("interrupted()=" + Thread.interrupted() + " then " + Thread.interrupted());
    Thread.sleep(1, 1);
    Thread.yield();
    BelowShadow.sleep(7);     // invokestatic BelowShadow.sleep -> bridge, resolves to Shadow's
    Shadow.sleep(5);
    System.out.println("shadow calls " + Shadow.calls);
  }
}
