// Application monitors taken while a JDK-internal monitor is held: the synchronized wrapper's
// mutex is locked by JDK code (not instrumented by default) and, inside, the list calls the
// elements' synchronized equals(), a scheduling point. Another thread then blocks on the
// mutex where jsched cannot see; the run must still complete, with no false report.
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

public class HiddenLock {
  static final class Item {
    final int v;
    Item(int v) { this.v = v; }
    @Override public synchronized boolean equals(Object o) {
      return o instanceof Item && ((Item) o).v == v;
    }
    @Override public int hashCode() { return v; }
  }

  public static void main(String[] args) throws Exception {
    List<Item> list = Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < 5; i++) list.add(new Item(i));
    Thread[] ts = new Thread[3];
    for (int k = 0; k < ts.length; k++) {
      final int id = k;
      ts[k] = new Thread(() -> {
        for (int i = 0; i < 4; i++) {
          if (!list.contains(new Item(i))) throw new AssertionError("missing " + i);
          list.add(new Item(100 + id * 10 + i));
        }
      });
    }
    for (Thread t : ts) t.start();
    for (Thread t : ts) t.join();
    System.out.println("size " + list.size());
  }
}
