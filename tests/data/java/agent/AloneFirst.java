/**
 * main fills an array and a field alone, then starts a worker that reads both, and writes the
 * field once more while the worker may still read it: the array's accesses are all ordered by
 * the worker's start (no race), the last write races with the worker's read.
 */
public class AloneFirst {
  static int[] table = new int[2000];
  static int last;

  public static void main(String[] args) throws InterruptedException {
    for (int i = 0; i < table.length; i++) {
      table[i] = i;
      last = i;
    }
    Thread worker =
        new Thread(
            () -> {
              long sum = 0;
              for (int v : table) sum += v;
              if (sum != 1999L * 2000 / 2 || last < 0) throw new AssertionError("sum " + sum);
            });
    worker.start();
    last = 0;
    worker.join();
    System.out.println("done");
  }
}
