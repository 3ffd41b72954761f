/*
 * airline (correct variant): ticket agents selling the seats of one flight.
 *
 * Same program as Main, but the check and the sale are one synchronized method (trySell), so no
 * agent can sell a seat that another agent has just taken.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "sold 2 of 2 seats".
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

  static class Agent extends Thread {
    private final Flight flight;

    Agent(String name, Flight flight) {
      super(name);
      this.flight = flight;
    }

    @Override
    public void run() {
      while (flight.trySell()) {
        // keep selling
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
