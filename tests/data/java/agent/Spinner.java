/** Hangs without a scheduling point: main spins for ever on a flag nobody sets. */
public class Spinner {
  static boolean stop;

  public static void main(String[] args) {
    long n = 0;
    while (!stop) ++n;
    System.out.println(n);
  }
}
