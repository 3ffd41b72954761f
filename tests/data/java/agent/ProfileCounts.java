// Accesses whose numbers do not depend on the schedule, for the counts of profile runs and of
// PCTVB's tracking: one instruction that touches arrays of two allocation sites in turn, an object
// touched in its constructor (before jsched knows its allocation site) and after, twenty objects
// of one site, and a thread's accesses. Counts per allocation site (line comments): A 34, B 20,
// Node 5, its twenty int[1] 20; the Object[] none (main keeps it to itself: no access of it is
// instrumented).
public class ProfileCounts {
  static final class Node {
    int v;

    Node() {
      init(); // before the constructor returns: not counted
    }

    void init() {
      v = 1;
    }
  }

  static void touch(int[] x) {
    x[0]++; // a load and a store
  }

  public static void main(String[] args) throws Exception {
    int[] a = new int[3]; // A
    int[] b = new int[5]; // B
    for (int i = 0; i < 10; i++) {
      touch(a);
      touch(b);
    }
    Node n = new Node();
    for (int i = 0; i < 3; i++) n.init();
    int sum = n.v + n.v;
    Object[] many = new Object[20];
    for (int i = 0; i < many.length; i++) many[i] = new int[1];
    for (int i = 0; i < many.length; i++) sum += ((int[]) many[i])[0];
    Thread t =
        new Thread(
            () -> {
              for (int i = 0; i < 7; i++) touch(a);
            });
    t.start();
    t.join();
    System.out.println("sum " + sum);
  }
}
