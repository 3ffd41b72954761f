// The start-up benchmark's program: one extra thread, a synchronized block, a line of output.
public class Hello {
  static int n;
  public static void main(String[] args) throws Exception {
    Thread t = new Thread(() -> { synchronized (Hello.class) { n++; } });
    t.start();
    t.join();
    System.out.println("hello " + n);
  }
}
