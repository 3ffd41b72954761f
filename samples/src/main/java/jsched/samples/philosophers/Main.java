/*
 * philosophers: the dining philosophers.
 *
 * Models: three philosophers around a table with three forks (plain objects used as monitors).
 * Each philosopher eats once; to eat it holds the fork on its left and the fork on its right
 * (nested synchronized blocks).
 *
 * Bug: every philosopher takes its left fork first, then its right fork. When the scheduler
 * switches threads after each philosopher has entered the monitor of its left fork and before it
 * enters the monitor of its right fork, every fork is held and every philosopher waits for its
 * neighbour: a cycle in the lock graph.
 *
 * Shows as: deadlock, all philosophers blocked on a monitor and main blocked in join (jsched
 * exit status 4). Correct runs print "3 philosophers ate 3 meals".
 */
package jsched.samples.philosophers;

public class Main {
  static final int MEALS = 1;

  static class Fork {
    private final int number;

    Fork(int number) {
      this.number = number;
    }

    @Override
    public String toString() {
      return "fork-" + number;
    }
  }

  static class Philosopher extends Thread {
    private final Fork left;
    private final Fork right;
    private int meals;

    Philosopher(String name, Fork left, Fork right) {
      super(name);
      this.left = left;
      this.right = right;
    }

    @Override
    public void run() {
      for (int i = 0; i < MEALS; i++) {
        // BUG: everyone takes left then right; the lock order forms a cycle.
        synchronized (left) {
          synchronized (right) {
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
    int count = 3;
    Fork[] forks = new Fork[count];
    for (int i = 0; i < count; i++) {
      forks[i] = new Fork(i);
    }
    Philosopher[] philosophers = new Philosopher[count];
    for (int i = 0; i < count; i++) {
      philosophers[i] = new Philosopher("philosopher-" + i, forks[i], forks[(i + 1) % count]);
    }
    for (Philosopher philosopher : philosophers) {
      philosopher.start();
    }
    int meals = 0;
    for (Philosopher philosopher : philosophers) {
      philosopher.join();
      meals += philosopher.meals();
    }
    if (meals != count * MEALS) {
      throw new AssertionError(meals + " meals eaten, expected " + count * MEALS);
    }
    System.out.println(count + " philosophers ate " + meals + " meals");
  }
}
