/*
 * atomiccheck (correct variant): check and increment in one compare-and-set.
 *
 * Same program as Main, but an agent sells with a compare-and-set loop: it reads the count and,
 * if it is below the limit, sets it to count + 1 only if nobody changed it in between; otherwise
 * it reads again. No sale is based on a count that is out of date.
 *
 * Expected jsched outcome: never fails (exit status 0); prints
 * "sold 3 of 3 tickets, turned away 1".
 */
package jsched.samples.atomiccheck;

import java.util.concurrent.atomic.AtomicInteger;

public class Fixed {
  static final int LIMIT = 3;

  /** Sells one ticket if fewer than LIMIT are sold; returns false when sold out. */
  static boolean trySell(AtomicInteger sold) {
    while (true) {
      int current = sold.get();
      if (current >= LIMIT) {
        return false;
      }
      if (sold.compareAndSet(current, current + 1)) {
        return true;
      }
    }
  }

  static class Agent extends Thread {
    private final AtomicInteger sold;
    private final int customers;
    private final boolean warmUp;
    private int turnedAway;
    private long setupChecksum;

    Agent(String name, AtomicInteger sold, int customers, boolean warmUp) {
      super(name);
      this.sold = sold;
      this.customers = customers;
      this.warmUp = warmUp;
    }

    @Override
    public void run() {
      if (warmUp) {
        setUp();
      }
      for (int i = 0; i < customers; i++) {
        if (!trySell(sold)) {
          turnedAway++;
        }
      }
    }

    /** Local preparation (a table checksum) without any synchronization. */
    private void setUp() {
      long sum = 0;
      for (int i = 0; i < 200_000; i++) {
        sum = sum * 31 + i;
      }
      setupChecksum = sum;
    }

    int turnedAway() {
      return turnedAway;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    AtomicInteger sold = new AtomicInteger();
    Agent[] agents = {new Agent("agent-1", sold, 2, false), new Agent("agent-2", sold, 2, true)};
    for (Agent agent : agents) {
      agent.start();
    }
    int turnedAway = 0;
    for (Agent agent : agents) {
      agent.join();
      turnedAway += agent.turnedAway();
    }
    if (sold.get() > LIMIT) {
      throw new AssertionError("oversold: " + sold.get() + " tickets, limit " + LIMIT);
    }
    System.out.println(
        "sold " + sold.get() + " of " + LIMIT + " tickets, turned away " + turnedAway);
  }
}
