/*
 * rarevariable: a lost update on a variable that is touched four times among hundreds of
 * accesses to a busy one (the setting of Bindal et al.'s PCTVB paper, Fig. 6; see
 * docs/references.md).
 *
 * Models: a statistics module. A recorder thread counts one event in `events` with a plain
 * read-modify-write and is done. A sampler thread first takes `busy` samples into `samples` (one
 * read and one write each) and then also counts its event in `events`.
 *
 * Bug: `events += 1` is not atomic. It is lost only when one thread's whole update of `events`
 * falls between the other's read and write, which needs a thread switch at one of the four
 * accesses to `events` and none at the hundreds of accesses to `samples` before it. A random
 * scheduler switches somewhere among the sampler's busy accesses with near certainty, PCT (one
 * change point among all accesses) rarely picks the one access that matters, and PCTVB picks
 * `events` as its variable often and then one of its four accesses.
 *
 * Shows as: main joins both threads and finds events == 1 -> AssertionError thrown by main
 * (jsched exit status 3). Correct runs print "events=2 samples=300".
 *
 * Argument: the number of busy samples (default 300).
 */
package jsched.samples.rarevariable;

public class Main {
  /** Busy accesses of the sampler (argument 0, default 300). */
  static int busy = 300;

  static int events;
  static int samples;

  public static void main(String[] args) throws InterruptedException {
    if (args.length > 0) busy = Integer.parseInt(args[0]);
    Thread recorder = new Thread(() -> events += 1, "recorder");
    Thread sampler =
        new Thread(
            () -> {
              for (int i = 0; i < busy; i++) samples += 1;
              events += 1;
            },
            "sampler");
    recorder.start();
    sampler.start();
    recorder.join();
    sampler.join();
    if (events != 2) throw new AssertionError("lost update: events=" + events + ", expected 2");
    System.out.println("events=" + events + " samples=" + samples);
  }
}
