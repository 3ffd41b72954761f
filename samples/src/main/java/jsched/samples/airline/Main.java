/*
 * airline: ticket agents selling the seats of one flight.
 *
 * Models: a flight with 2 seats and 3 agent threads; each agent keeps selling while the flight
 * reports a free seat. Both the query (freeSeats) and the sale (sellSeat) are synchronized.
 *
 * Bug: check-then-act. An agent asks freeSeats() in one synchronized call and sells in another.
 * When the scheduler switches threads between the two calls (after the monitorexit of freeSeats)
 * and another agent sells the last seat in the meantime, the first agent sells a seat that no
 * longer exists.
 *
 * Shows as: main joins the agents and finds more tickets sold than seats -> AssertionError thrown
 * by main (jsched exit status 3). Correct runs print "sold 2 of 2 seats".
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

  static class Agent extends Thread {
    private final Flight flight;

    Agent(String name, Flight flight) {
      super(name);
      this.flight = flight;
    }

    @Override
    public void run() {
      // BUG: the check and the sale are two separate synchronized calls.
      while (flight.freeSeats() > 0) {
        flight.sellSeat();
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Flight flight = new Flight(2);
    Agent[] agents = new Agent[3];
    for (int i = 0; i < agents.length; i++) {
      agents[i] = new Agent("agent-" + (i + 1), flight);
    }
    for (Agent agent : agents) {
      agent.start();
    }
    for (Agent agent : agents) {
      agent.join();
    }
    int sold = flight.sold();
    if (sold != flight.capacity()) {
      throw new AssertionError("oversold: " + sold + " tickets for " + flight.capacity() + " seats");
    }
    System.out.println("sold " + sold + " of " + flight.capacity() + " seats");
  }
}
