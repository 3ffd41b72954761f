// Two threads take turns on a monitor for ever while main waits for them: a hang that makes
// steps all the time, so the watchdog ends it after a number of steps real time decides.
public class Livelock {
  static final Object lock = new Object();
  static long turns;

  public static void main(String[] args) throws InterruptedException {
    Runnable spin = () -> {
      while (true) {
        synchronized (lock) {
          turns++;
        }
      }
    };
    Thread a = new Thread(spin), b = new Thread(spin);
    a.start();
    b.start();
    a.join();
  }
}
