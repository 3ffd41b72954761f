/*
 * collections: the java.util drivers of Sen's RAPOS paper (section 5.1, MTLISTest; see
 * docs/references.md): seven threads, one
 * operation each, on two synchronized collections.
 *
 * Models: the drivers behind Sen's Table 1 and Figure 7. The argument picks the collection:
 * vector (two Vectors), arraylist, linkedlist (Collections.synchronizedList over ArrayList or
 * LinkedList), hashset, linkedhashset, treeset (Collections.synchronizedSet). Thread i runs
 * operation i on (c1, c2) for even i and on (c2, c1) for odd i: add, addAll, clear, contains,
 * containsAll, remove, removeAll. Every thread's element has value 0, so that add, contains and
 * remove meet (the paper draws it at random from a small range; fixed here so that runs depend on
 * the schedule only). Main starts the seven threads and returns.
 *
 * Run with the JDK's collections instrumented (agent option include=java.util.): with only this
 * class instrumented, each thread is a single call and there is almost nothing to interleave.
 *
 * Bug: containsAll locks the receiver and iterates over the argument collection through its plain
 * iterator, without the argument's lock (the wrappers' iterator "must be manually synched by
 * user"). When the thread of operation 5 removes the element from the argument during that
 * iteration (after operations 0 and 1 have put it there), the iterator's next call throws.
 * Vector's iterator locks the vector in next, so a thread switch at that lock is enough; the
 * synchronized wrappers' iterators take no lock, and the window shows only when field accesses
 * are scheduling points (accesses=all). The lists also deadlock: addAll holds the receiver's lock
 * while it copies the argument under the argument's lock, removeAll holds its receiver's lock
 * while it asks the argument's contains, and operations 1 and 6 do this on (c2, c1) and (c1, c2).
 *
 * Shows as: java.util.ConcurrentModificationException escaping one of the threads (jsched exit
 * status 3), or a deadlock (status 4). Correct runs print nothing and exit 0.
 */
package jsched.samples.collections;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.TreeSet;
import java.util.Vector;

public class Main {
  /** A plain element with value equality, as the paper's SimpleObject. */
  static final class SimpleObject implements Comparable<SimpleObject> {
    final int value;

    SimpleObject(int value) {
      this.value = value;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof SimpleObject && ((SimpleObject) o).value == value;
    }

    @Override
    public int hashCode() {
      return value;
    }

    @Override
    public int compareTo(SimpleObject o) {
      return Integer.compare(value, o.value);
    }
  }

  static final class Driver extends Thread {
    private final Collection<SimpleObject> c1;
    private final Collection<SimpleObject> c2;
    private final int op;

    Driver(Collection<SimpleObject> c1, Collection<SimpleObject> c2, int op) {
      this.c1 = c1;
      this.c2 = c2;
      this.op = op;
    }

    @Override
    public void run() {
      SimpleObject o = new SimpleObject(0);
      switch (op) {
        case 0:
          c1.add(o);
          break;
        case 1:
          c1.addAll(c2);
          break;
        case 2:
          c1.clear();
          break;
        case 3:
          c1.contains(o);
          break;
        case 4:
          c1.containsAll(c2);
          break;
        case 5:
          c1.remove(o);
          break;
        default:
          c1.removeAll(c2);
          break;
      }
    }
  }

  static Collection<SimpleObject> make(String kind) {
    switch (kind) {
      case "vector":
        return new Vector<>();
      case "arraylist":
        return Collections.synchronizedList(new ArrayList<>());
      case "linkedlist":
        return Collections.synchronizedList(new LinkedList<>());
      case "hashset":
        return Collections.synchronizedSet(new HashSet<>());
      case "linkedhashset":
        return Collections.synchronizedSet(new LinkedHashSet<>());
      case "treeset":
        return Collections.synchronizedSet(new TreeSet<>());
      default:
        throw new IllegalArgumentException("unknown collection '" + kind
            + "' (vector, arraylist, linkedlist, hashset, linkedhashset, treeset)");
    }
  }

  public static void main(String[] args) {
    String kind = args.length > 0 ? args[0] : "vector";
    Collection<SimpleObject> c1 = make(kind);
    Collection<SimpleObject> c2 = make(kind);
    for (int op = 0; op < 7; op++) {
      Driver d = op % 2 == 0 ? new Driver(c1, c2, op) : new Driver(c2, c1, op);
      d.start();
    }
  }
}
