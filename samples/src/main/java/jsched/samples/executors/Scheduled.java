/*
 * executors, Scheduled: a java.util.Timer running delayed tasks (correct program, no bug).
 *
 * Models: main schedules 3 TimerTasks with delays of 1, 3 and 5 ms on a Timer; each counts a
 * CountDownLatch down. Main waits on the latch and then cancels the timer, which ends the timer's
 * thread.
 *
 * For jsched: the timer thread waits with a timeout (Object.wait inside java.util.Timer) until a
 * task is due; every interleaving, whatever the timeouts, must run to completion with no report.
 * The outcome does not depend on the delays.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "3 timer tasks done".
 */
package jsched.samples.executors;

import java.util.Timer;
import java.util.TimerTask;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

public class Scheduled {
  static class Tick extends TimerTask {
    private final CountDownLatch fired;
    private final AtomicInteger runs;

    Tick(CountDownLatch fired, AtomicInteger runs) {
      this.fired = fired;
      this.runs = runs;
    }

    @Override
    public void run() {
      runs.incrementAndGet();
      fired.countDown();
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Timer timer = new Timer("timer");
    CountDownLatch fired = new CountDownLatch(3);
    AtomicInteger runs = new AtomicInteger();
    for (long delay : new long[] {1, 3, 5}) {
      timer.schedule(new Tick(fired, runs), delay);
    }
    fired.await();
    timer.cancel();
    if (runs.get() != 3) {
      throw new AssertionError(runs.get() + " timer tasks ran, expected 3");
    }
    System.out.println(runs.get() + " timer tasks done");
  }
}
