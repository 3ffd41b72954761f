/*
 * sleepingbarber: a barber shop whose waiting room is updated in two steps.
 *
 * Models: the sleeping barber. The waiting room has two chairs; three customers come by, and a
 * customer who finds every chair taken leaves. Customers run a few errands in town on the way (the
 * later a customer, the more errands), so they come by at different times. The barber sleeps
 * (waits) until every customer has come by (sat down or left), then serves the waiting customers
 * one at a time and goes home.
 *
 * Bug: a customer looks for a free chair in one synchronized block and sits down in a second one.
 * When the scheduler switches threads between the two blocks (after the first monitorexit) and
 * the other two customers also find a chair free and sit down, three customers sit on two chairs.
 * The race needs all three customers in the waiting room at once, which the errands make rare.
 * The barber cannot step in (he sleeps until the late customer has sat down), so one pre-emption
 * is enough: PCT depth 2.
 *
 * Shows as: AssertionError thrown by the customer who sits down last ("3 customers waiting for 2
 * chairs") (jsched exit status 3). Correct runs print "3 customers, all served or turned away".
 */
package jsched.samples.sleepingbarber;

public class Main {
  static final int CHAIRS = 2;
  static final int ERRANDS = 3; // customer i runs ERRANDS * i errands before coming by

  static class Shop {
    final int customers;
    int waiting;
    int cameBy; // sat down or left
    int served;
    int turnedAway;

    Shop(int customers) {
      this.customers = customers;
    }

    boolean everyoneAccountedFor() {
      return served + turnedAway == customers;
    }

    boolean everyoneCameBy() {
      return cameBy == customers;
    }
  }

  static class Barber extends Thread {
    private final Shop shop;

    Barber(Shop shop) {
      super("barber");
      this.shop = shop;
    }

    @Override
    public void run() {
      try {
        synchronized (shop) {
          while (!shop.everyoneCameBy()) {
            shop.wait(); // sleep until the last customer has sat down or left
          }
        }
        while (true) {
          synchronized (shop) {
            if (shop.waiting == 0) {
              return; // everyone served or gone: close the shop
            }
            shop.waiting--; // call the next customer in
            shop.served++;
          }
          // the haircut itself happens outside the shop's monitor
        }
      } catch (InterruptedException e) {
        throw new IllegalStateException("interrupted", e);
      }
    }
  }

  static class Customer extends Thread {
    private final Shop shop;
    private final Object town;
    private final int errands;

    Customer(String name, Shop shop, Object town, int errands) {
      super(name);
      this.shop = shop;
      this.town = town;
      this.errands = errands;
    }

    @Override
    public void run() {
      for (int i = 0; i < errands; i++) {
        synchronized (town) {
          // an errand on the way: customers come by at different times
        }
      }
      boolean chairFree;
      synchronized (shop) {
        chairFree = shop.waiting < CHAIRS;
        if (!chairFree) {
          shop.turnedAway++;
          shop.cameBy++;
          shop.notifyAll();
        }
      }
      if (chairFree) {
        // BUG: the chair may have been taken since the check above.
        synchronized (shop) {
          shop.waiting++;
          shop.cameBy++;
          if (shop.waiting > CHAIRS) {
            throw new AssertionError(shop.waiting + " customers waiting for " + CHAIRS + " chairs");
          }
          shop.notifyAll(); // wake the barber
        }
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Shop shop = new Shop(3);
    Thread barber = new Barber(shop);
    Object town = new Object();
    Thread[] customers = new Thread[shop.customers];
    for (int i = 0; i < customers.length; i++) {
      customers[i] = new Customer("customer-" + (i + 1), shop, town, ERRANDS * i);
    }
    barber.start();
    for (Thread customer : customers) {
      customer.start();
    }
    for (Thread customer : customers) {
      customer.join();
    }
    barber.join();
    synchronized (shop) {
      if (!shop.everyoneAccountedFor() || shop.waiting != 0) {
        throw new AssertionError("served " + shop.served + ", turned away " + shop.turnedAway
            + ", still waiting " + shop.waiting);
      }
    }
    System.out.println(shop.customers + " customers, all served or turned away");
  }
}
