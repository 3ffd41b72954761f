// A worker spins on a plain field until main sets it. Under the scheduler the spinner may run
// first and alone (no scheduling point in its loop): the watchdog's hang. Main sets the flag
// after one synchronized step, so about half the runs end normally.
public class HangsSometimes {
  static boolean go;
  static final Object lock = new Object();

  public static void main(String[] args) throws InterruptedException {
    Thread spinner = new Thread(() -> {
      long spins = 0;
      while (!go) spins++;
      if (spins < 0) System.out.println(spins);
    });
    spinner.setDaemon(true);
    spinner.start();
    synchronized (lock) {
      go = true;
    }
  }
}
