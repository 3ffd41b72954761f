// Two threads poll for a flag nobody will set, one sleeping between looks and one waiting on a
// monitor with a timeout, while main waits for them: the same states over and over, only the
// clock moving. A plain JVM never ends; jsched calls it a livelock and says where they turn.
public class TimedLivelock {
  static volatile boolean ready;
  static final Object lock = new Object();

  public static void main(String[] args) throws InterruptedException {
    Thread sleeper = new Thread(() -> {
      try {
        while (!ready) Thread.sleep(10);
      } catch (InterruptedException e) {
        throw new RuntimeException(e);
      }
    });
    Thread waiter = new Thread(() -> {
      synchronized (lock) {
        try {
          while (!ready) lock.wait(5);
        } catch (InterruptedException e) {
          throw new RuntimeException(e);
        }
      }
    });
    sleeper.start();
    waiter.start();
    sleeper.join();
    waiter.join();
  }
}
