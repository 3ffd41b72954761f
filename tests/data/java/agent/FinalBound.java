/**
 * A worker loops 10,000 times to a bound it reads from a field each turn: a final field (argument
 * "final", also a static final one), a final field of another class loaded before the worker's
 * ("other"), or a plain one ("plain"). Under accesses=all a read of a final field cannot race with
 * a write, so only the plain bound makes a scheduling point per turn.
 */
public class FinalBound {
  static final int[] STATIC_BOUND = {10_000};
  static int plainStaticBound = 10_000;

  final int finalBound;
  int plainBound;
  long sum;

  FinalBound(int bound) {
    finalBound = bound;
    plainBound = bound;
  }

  static class Limits {
    final int bound;

    Limits(int bound) {
      this.bound = bound;
    }
  }

  static class Looper extends Thread {
    private final Limits limits;

    Looper(Limits limits) {
      this.limits = limits;
    }

    @Override
    public void run() {
      for (int i = 0; i < limits.bound; i++) {}
    }
  }

  public static void main(String[] args) throws InterruptedException {
    String kind = args.length > 0 ? args[0] : "final";
    FinalBound b = new FinalBound(10_000);
    Thread worker;
    if (kind.equals("other")) {
      Limits limits = new Limits(10_000);
      worker = new Looper(limits);
    } else {
      boolean plain = kind.equals("plain");
      worker =
          new Thread(
              () -> {
                if (plain) {
                  for (int i = 0; i < b.plainBound && i < plainStaticBound; i++) b.sum += 0;
                } else {
                  for (int i = 0; i < b.finalBound && i < STATIC_BOUND.length * 10_000; i++) {}
                }
              });
    }
    worker.start();
    worker.join();
  }
}
