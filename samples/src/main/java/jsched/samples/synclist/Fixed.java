/*
 * synclist (correct variant): containsAll against a snapshot taken under the argument's lock.
 *
 * Same program as Main, but the checker copies listB while holding listB's monitor (the wrapper
 * object itself is its mutex, as Collections.synchronizedList documents) and passes the copy to
 * listA.containsAll. Nothing iterates over listB without its lock, so main can never
 * invalidate an iterator in use. Making the copy calls no application code (no equals), so when
 * JDK classes are not instrumented the checker never pauses while holding listB's monitor, and main
 * never blocks on a monitor the scheduler cannot see.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "listA=2 listB=3".
 */
package jsched.samples.synclist;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

public class Fixed {
  /**
   * A list element written to be shared between threads: its methods synchronize on the element,
   * so every comparison of two items is a scheduling point.
   */
  static class Item {
    private final int id;

    Item(int id) {
      this.id = id;
    }

    @Override
    public synchronized boolean equals(Object other) {
      return other instanceof Item && ((Item) other).id == id;
    }

    @Override
    public synchronized int hashCode() {
      return id;
    }
  }

  static class Checker extends Thread {
    private final List<Item> listA;
    private final List<Item> listB;

    Checker(List<Item> listA, List<Item> listB) {
      super("checker");
      this.listA = listA;
      this.listB = listB;
    }

    @Override
    public void run() {
      listA.contains(new Item(1));
      // Iterating over a synchronized list needs its lock: copy listB while holding it, then
      // compare against the private copy.
      List<Item> snapshot;
      synchronized (listB) {
        snapshot = new ArrayList<>(listB);
      }
      listA.containsAll(snapshot);
    }
  }

  public static void main(String[] args) throws InterruptedException {
    List<Item> listA = Collections.synchronizedList(new ArrayList<>());
    List<Item> listB = Collections.synchronizedList(new ArrayList<>());
    listA.add(new Item(1));
    listA.add(new Item(2));
    listB.add(new Item(1));
    listB.add(new Item(2));
    Thread checker = new Checker(listA, listB);
    checker.start();
    listB.add(new Item(3)); // main modifies listB while the checker may be iterating over it
    checker.join();
    System.out.println("listA=" + listA.size() + " listB=" + listB.size());
  }
}
