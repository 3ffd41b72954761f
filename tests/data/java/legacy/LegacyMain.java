// Uses LegacyDesc's constants from two threads (compiled with --release 7 too).
public class LegacyMain {
  public static void main(String[] args) throws Exception {
    final StringBuffer out = new StringBuffer();
    Thread t = new Thread(new Runnable() {
      public void run() {
        out.append(LegacyDesc.LOUD.text());
      }
    });
    t.start();
    out.append(LegacyDesc.NONE.text());
    t.join();
    String s = out.toString();
    if (!s.equals("noneNONE") && !s.equals("NONEnone")) throw new AssertionError(s);
    System.out.println("legacy ok");
  }
}
