// Two workers each build a table of 5,000 numbers in an array of their own (no other thread can
// see it yet: its stores and loads are no scheduling points), publish it, then increment a
// counter in an array they share, without a lock: a lost update that must still show.
public class FreshTables {
  static final int[] counter = new int[1];
  static final int[][] tables = new int[2][];

  public static void main(String[] args) throws Exception {
    Thread[] workers = new Thread[2];
    for (int t = 0; t < 2; t++) {
      final int me = t;
      workers[t] = new Thread(() -> {
        tables[me] = build(5000, me + 1);
        int c = counter[0];
        counter[0] = c + 1;
      });
    }
    for (Thread w : workers) w.start();
    for (Thread w : workers) w.join();
    if (tables[0].length != 5000 || tables[1][4999] != 2 * 4999)
      throw new AssertionError("tables");
    if (counter[0] != 2) throw new AssertionError("lost update: " + counter[0]);
    System.out.println("done");
  }

  static int[] build(int n, int k) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) a[i] = i * k;
    long sum = 0;
    for (int i = 0; i < n; i++) sum += a[i];
    if (sum != (long) k * n * (n - 1) / 2) throw new AssertionError("table " + k);
    return a;
  }
}
