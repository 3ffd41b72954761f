/**
 * A benign race: two workers count their requests in a plain `hits` field without a lock (a racy
 * statistic that nothing checks), and each hands its own result to main through join. jsched
 * reports the race on `hits` as a warning and finds nothing: no execution fails.
 */
public class BenignRace {
  static class Stats {
    long hits; // racy on purpose: a statistic
  }

  static class Worker extends Thread {
    private final Stats stats;
    int result;

    Worker(Stats stats) {
      this.stats = stats;
    }

    @Override
    public void run() {
      for (int i = 1; i <= 3; i++) {
        stats.hits++;
        result += i;
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Stats stats = new Stats();
    Worker a = new Worker(stats), b = new Worker(stats);
    a.start();
    b.start();
    a.join();
    b.join();
    System.out.println("results " + a.result + " " + b.result);
  }
}
