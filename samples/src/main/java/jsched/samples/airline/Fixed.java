/*
 * airline (correct variant): ticket agents selling the seats of one flight.
 *
 * Same program as Main, but the check and the sale are one synchronized method (trySell), so no
 * agent can sell a seat that another agent has just taken.
 *
 * Expected jsched outcome: never fails (exit status 0); prints
 * "sold 3 of 3 seats, turned away 1".
 */
package jsched.samples.airline;

public class Fixed {
  static class Flight {
    private final int capacity;
    private int sold;

    Flight(int capacity) {
      this.capacity = capacity;
    }

    /** Sells one seat if there is one left; returns false when the flight is full. */
    synchronized boolean trySell() {
      if (sold == capacity) {
        return false;
      }
      sold++;
      return true;
    }

    synchronized int sold() {
      return sold;
    }

    int capacity() {
      return capacity;
    }
  }

  /** The agent's own record of the requests it handled (not shared with other agents). */
  static class RequestLog {
    private int requests;

    synchronized void record(String customer) {
      requests++;
    }
  }

  static class Agent extends Thread {
    private final Flight flight;
    private final String[] customers;
    private final RequestLog log = new RequestLog();
    private int turnedAway;

    Agent(String name, Flight flight, String... customers) {
      super(name);
      this.flight = flight;
      this.customers = customers;
    }

    @Override
    public void run() {
      for (String customer : customers) {
        log.record(customer);
        if (!flight.trySell()) {
          turnedAway++;
        }
      }
    }

    int turnedAway() {
      return turnedAway;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Flight flight = new Flight(3);
    Agent[] agents = {
      new Agent("agent-1", flight, "Ada"),
      new Agent("agent-2", flight, "Brian"),
      new Agent("agent-3", flight, "Carla", "Dennis"),
    };
    for (Agent agent : agents) {
      agent.start();
    }
    int turnedAway = 0;
    for (Agent agent : agents) {
      agent.join();
      turnedAway += agent.turnedAway();
    }
    int sold = flight.sold();
    if (sold > flight.capacity()) {
      throw new AssertionError(
          "oversold: " + sold + " tickets for " + flight.capacity() + " seats");
    }
    System.out.println(
        "sold " + sold + " of " + flight.capacity() + " seats, turned away " + turnedAway);
  }
}
