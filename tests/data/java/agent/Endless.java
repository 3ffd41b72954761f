// Computes for ever without a scheduling point: only the watchdog or a signal ends it.
public class Endless {
  public static void main(String[] args) {
    long i = 0;
    while (i >= 0) i += args.length + 1;
    System.out.println(i);
  }
}
