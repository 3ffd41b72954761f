/*
 * sleepingbarber: a barber shop whose waiting room is updated in two steps.
 *
 * Models: the sleeping barber. One barber sleeps (waits) while nobody is waiting and serves
 * waiting customers one at a time; the waiting room has two chairs. Three customers arrive; a
 * customer who finds every chair taken leaves. The barber goes home once every customer has been
 * served or has left.
 *
 * Bug: a customer looks for a free chair in one synchronized block and sits down in a second one.
 * When the scheduler switches threads between the two blocks (after the first monitorexit) and
 * the other customers also find a chair free and sit down before the barber calls anyone in, three
 * customers sit on two chairs. (The race matters only when all three customers are in the waiting
 * room at once, which keeps the bug fairly rare.)
 *
 * Shows as: AssertionError thrown by the customer who sits down last ("3 customers waiting for 2
 * chairs") (jsched exit status 3). Correct runs print "3 customers, all served or turned away".
 */
package jsched.samples.sleepingbarber;

public class Main {
  static final int CHAIRS = 2;

  static class Shop {
    final int customers;
    int waiting;
    int served;
    int turnedAway;

    Shop(int customers) {
      this.customers = customers;
    }

    boolean everyoneAccountedFor() {
      return served + turnedAway == customers;
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
        while (true) {
          synchronized (shop) {
            while (shop.waiting == 0 && !shop.everyoneAccountedFor()) {
              shop.wait(); // sleep until a customer arrives or leaves
            }
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

    Customer(String name, Shop shop) {
      super(name);
      this.shop = shop;
    }

    @Override
    public void run() {
      boolean chairFree;
      synchronized (shop) {
        chairFree = shop.waiting < CHAIRS;
        if (!chairFree) {
          shop.turnedAway++;
          shop.notifyAll();
        }
      }
      if (chairFree) {
        // BUG: the chair may have been taken since the check above.
        synchronized (shop) {
          shop.waiting++;
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
    Thread[] customers = new Thread[shop.customers];
    for (int i = 0; i < customers.length; i++) {
      customers[i] = new Customer("customer-" + (i + 1), shop);
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
