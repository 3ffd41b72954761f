/*
 * philosophers (correct variant): the dining philosophers with ordered forks.
 *
 * Same program as Main, but every philosopher takes the lower-numbered of its two forks first.
 * All threads acquire the fork monitors in one global order, so the lock graph has no cycle and
 * no deadlock is possible.
 *
 * Optional arguments: the number of philosophers (default 3) and of meals each (default 1); the
 * partial-order table (docs/strategies.md) runs it bigger.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "3 philosophers ate 3 meals".
 */
package jsched.samples.philosophers;

public class Fixed {

  static class Fork {
    private final int number;

    Fork(int number) {
      this.number = number;
    }

    int number() {
      return number;
    }

    @Override
    public String toString() {
      return "fork-" + number;
    }
  }

  static class Philosopher extends Thread {
    private final Fork first;
    private final Fork second;
    private final int rounds;
    private int meals;

    Philosopher(String name, Fork left, Fork right, int rounds) {
      super(name);
      this.rounds = rounds;
      // Lower-numbered fork first: one global lock order.
      this.first = left.number() < right.number() ? left : right;
      this.second = left.number() < right.number() ? right : left;
    }

    @Override
    public void run() {
      for (int i = 0; i < rounds; i++) {
        synchronized (first) {
          synchronized (second) {
            meals++;
          }
        }
      }
    }

    int meals() {
      return meals;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    int count = args.length > 0 ? Integer.parseInt(args[0]) : 3;
    int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 1;
    Fork[] forks = new Fork[count];
    for (int i = 0; i < count; i++) {
      forks[i] = new Fork(i);
    }
    Philosopher[] philosophers = new Philosopher[count];
    for (int i = 0; i < count; i++) {
      philosophers[i] =
          new Philosopher("philosopher-" + i, forks[i], forks[(i + 1) % count], rounds);
    }
    for (Philosopher philosopher : philosophers) {
      philosopher.start();
    }
    int meals = 0;
    for (Philosopher philosopher : philosophers) {
      philosopher.join();
      meals += philosopher.meals();
    }
    if (meals != count * rounds) {
      throw new AssertionError(meals + " meals eaten, expected " + count * rounds);
    }
    System.out.println(count + " philosophers ate " + meals + " meals");
  }
}
