// A finding with millions of pre-emptions: two threads take turns over a volatile counter for
// N rounds each (every turn a scheduling point a random scheduler may pre-empt), then four
// others make one unsynchronized increment each, which loses an update when they interleave.
// The bug needs one pre-emption; a random run records millions.
public class LongRace {
  static volatile long ticks;
  static volatile int shared;

  public static void main(String[] args) throws Exception {
    final long rounds = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000;
    Runnable tick =
        () -> {
          for (long i = 0; i < rounds; ++i) ticks = i;
        };
    Thread ticker = new Thread(tick);
    ticker.start();
    tick.run();
    ticker.join();
    Runnable bump =
        () -> {
          int v = shared;
          for (int i = 0; i < 4; ++i) ticks = i;
          shared = v + 1;
        };
    Thread[] bumpers = new Thread[4];
    for (int i = 0; i < bumpers.length; ++i) (bumpers[i] = new Thread(bump)).start();
    for (Thread t : bumpers) t.join();
    if (shared != bumpers.length) throw new AssertionError("lost update: shared = " + shared);
  }
}
