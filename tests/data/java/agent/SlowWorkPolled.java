// main polls with a sleep for a worker that computes for a long while, reading a volatile
// setting at each round and writing nothing another thread sees until it is done: a long
// stretch with only the clock moving for main, but the worker never waits, so it is slow work,
// not a livelock. Ends ok.
public class SlowWorkPolled {
  static volatile boolean done;
  static volatile int rounds = Integer.getInteger("rounds", 3_000_000);
  static long sink;

  public static void main(String[] args) throws InterruptedException {
    Thread worker = new Thread(() -> {
      long h = 17;
      for (int i = 0; i < rounds; ++i) h = h * 31 + i;  // `rounds`: a volatile read each turn
      sink = h;
      done = true;
    });
    worker.start();
    while (!done) Thread.sleep(1);
    worker.join();
    System.out.println("done " + (sink != 0));
  }
}
