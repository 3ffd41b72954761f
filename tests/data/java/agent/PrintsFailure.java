// A harness from before JUnit: it checks for a lost update, prints its verdict and exits 0
// either way. Only the printed line tells a failure (jsched's bug-output=). With an argument
// "lock" the updates are under a lock and it never fails.
public class PrintsFailure {
  static volatile int count;

  public static void main(String[] args) throws Exception {
    final boolean lock = args.length > 0 && args[0].equals("lock");
    Runnable bump =
        () -> {
          synchronized (lock ? PrintsFailure.class : new Object()) {
            int v = count;
            count = v + 1;
          }
        };
    Thread a = new Thread(bump), b = new Thread(bump);
    a.start();
    b.start();
    a.join();
    b.join();
    if (count != 2) {
      System.out.println("Bug has been reproduced, count = " + count);
    } else {
      System.out.println("passed, count = " + count);
    }
  }
}
