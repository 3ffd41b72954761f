/*
 * airline: ticket agents selling the seats of one flight.
 *
 * Models: a flight with 3 seats and 3 agent threads serving 4 customers between them (1, 1 and 2).
 * For each customer an agent records the request in its own log, then sells a seat if the flight
 * reports one free. Both the query (freeSeats) and the sale (sellSeat) are synchronized.
 *
 * Bug: check-then-act. An agent asks freeSeats() in one synchronized call and sells in another.
 * When the scheduler switches threads between the two calls (after the monitorexit of freeSeats)
 * and another agent sells the last seat in the meantime, the first agent sells a seat that no
 * longer exists. Only the race for the last seat matters, which keeps the bug fairly rare.
 *
 * Shows as: main joins the agents and finds more tickets sold than seats -> AssertionError thrown
 * by main (jsched exit status 3). Correct runs print
 * "sold 3 of 3 seats, turned away 1".
 */
package jsched.samples.airline;

public class Main {
  static class Flight {
    private final int capacity;
    private int sold;

    Flight(int capacity) {
      this.capacity = capacity;
    }

    synchronized int freeSeats() {
      return capacity - sold;
    }

    synchronized void sellSeat() {
      sold++;
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
        // BUG: the check and the sale are two separate synchronized calls.
        if (flight.freeSeats() > 0) {
          flight.sellSeat();
        } else {
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
