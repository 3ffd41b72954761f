package jsched.samples.tscabench;

/**
 * The benchmark of the TSCA thesis (Çalpur's thesis, Fig. 39; see docs/references.md): m
 * threads, each with non-critical
 * work and four synchronized sections on two shared locks, so five atomic blocks a thread (the
 * last one is the tail after the fourth release). No bug: it measures how many executions
 * t-way block coverage needs (thesis Tables 3-5). Argument: m (default 5).
 */
public class Main {
  static final class Shared {
    int value;

    void update() {
      value++;
    }
  }

  static final class Single extends Thread {
    private final Shared lock, lock2;
    long work;

    Single(Shared lock, Shared lock2) {
      this.lock = lock;
      this.lock2 = lock2;
    }

    private void nonCritical(int k) {
      for (int i = 0; i < 50; i++) work += (long) i * k;
    }

    @Override
    public void run() {
      nonCritical(1);
      synchronized (lock) {
        lock.update();
      }
      nonCritical(2);
      synchronized (lock) {
        lock.update();
      }
      nonCritical(3);
      synchronized (lock2) {
        lock2.update();
      }
      nonCritical(4);
      synchronized (lock) {
        lock.update();
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    int m = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    Shared lock = new Shared(), lock2 = new Shared();
    Single[] threads = new Single[m];
    for (int i = 0; i < m; i++) threads[i] = new Single(lock, lock2);
    for (Single t : threads) t.start();
    for (Single t : threads) t.join();
    if (lock.value != 3 * m || lock2.value != m) throw new AssertionError("lost update");
    System.out.println("tscabench: " + m + " threads done");
  }
}
