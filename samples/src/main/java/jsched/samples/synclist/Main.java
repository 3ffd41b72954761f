/*
 * synclist: Collections.synchronizedList used with another synchronized list as argument.
 *
 * Models: the collection drivers of Sen's RAPOS paper (section 5.1). Two lists, both wrapped with
 * Collections.synchronizedList, hold items 1 and 2. A checker thread asks listA.contains(item 1)
 * and then listA.containsAll(listB); main, after starting it, appends item 3 to listB. The items
 * are objects written to be shared, whose equals and hashCode are synchronized, so every comparison
 * inside the lists is a scheduling point even when JDK classes are not instrumented (with JDK
 * classes instrumented, the wrappers' own monitors are points too). While the threads run, only
 * the checker uses listA, so no thread ever blocks on a wrapper's monitor held by another. (Paper
 * drivers start one thread per operation; here main itself is the modifying thread, which keeps
 * plain runs on the harmless path: main appends long before the new thread starts iterating.)
 *
 * Bug: the synchronized wrapper of listA holds listA's lock only. containsAll iterates over listB
 * through listB's plain iterator (the wrapper's iterator() is documented as "must be manually
 * synched by user"), without holding listB's lock. When the scheduler switches threads in the
 * middle of that iteration (at an element's equals) and main appends to listB, the iterator's
 * next call finds listB's modCount changed.
 *
 * Shows as: java.util.ConcurrentModificationException escaping the checker thread (jsched exit
 * status 3). Correct runs print "listA=2 listB=3" (the containsAll answer itself depends on the
 * order and is not printed).
 */
package jsched.samples.synclist;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

public class Main {
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
      // BUG: locks listA only, iterates over listB unlocked.
      listA.containsAll(listB);
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
