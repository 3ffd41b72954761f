// Thread.stop() of a thread that can take its step (up to JDK 19): its ThreadDeath ends it
// silently, as ThreadGroup does, and is no finding (guava's TestThread stops its threads so).
// From JDK 20 on stop() throws, under jsched too.
public class StopSpinning {
  static volatile long turns;

  @SuppressWarnings("removal")
  public static void main(String[] args) throws Exception {
    Thread spinner = new Thread(() -> {
      while (true) {
        turns++;
        Thread.yield();  // PCT lowers a thread that yields: main gets to stop it
      }
    });
    spinner.start();
    while (turns < 3) Thread.yield();
    try {
      spinner.stop();
    } catch (UnsupportedOperationException e) {
      if (Runtime.version().feature() < 20) throw e;
      System.out.println("stop unsupported");
      System.exit(0);
    }
    spinner.join();
    System.out.println("stopped");
  }
}
