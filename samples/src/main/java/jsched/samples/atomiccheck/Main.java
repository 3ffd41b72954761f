/*
 * atomiccheck: check-then-act on an AtomicInteger.
 *
 * Models: a concert with 3 tickets, the number sold kept in an AtomicInteger. Two agents serve 2
 * customers each: an agent sells a ticket if fewer than 3 are sold, and turns the customer away
 * otherwise.
 *
 * Bug: each operation on the counter is atomic, but the check (get() < LIMIT) and the sale
 * (incrementAndGet()) are two operations. When the scheduler switches threads after an agent has
 * seen 2 tickets sold (at its incrementAndGet call) and the other agent also sees 2 before either
 * sells, both sell the last ticket.
 *
 * Shows as: main joins the agents and finds 4 tickets sold -> AssertionError thrown by main
 * (jsched exit status 3). Correct runs print "sold 3 of 3 tickets, turned away 1". (Agent 2 first
 * does some local computation without any synchronization, so in plain runs agent 1 has sold its
 * tickets before agent 2 starts.)
 */
package jsched.samples.atomiccheck;

import java.util.concurrent.atomic.AtomicInteger;

public class Main {
  static final int LIMIT = 3;

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
        // BUG: the check and the increment are two separate atomic operations.
        if (sold.get() < LIMIT) {
          sold.incrementAndGet();
        } else {
          turnedAway++;
        }
      }
    }

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps this agent behind the other one.
     */
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
