// Sen's RAPOS paper (docs/references.md), Figure 1: thread 1 writes y three times, then x = 4;
// thread 2 fails if it reads x == 4. In the paper's model both threads are enabled from the start;
// here thread 2 is started first so that thread 1 gets no head start the model does not have.
public class Figure1 {
  static volatile int x, y;

  public static void main(String[] args) throws Exception {
    Thread t1 = new Thread(() -> {
      y = 1;
      y = 2;
      y = 3;
      x = 4;
    });
    Thread t2 = new Thread(() -> {
      if (x == 4) throw new AssertionError("x == 4");
    });
    t2.start();
    t1.start();
    t1.join();
    t2.join();
  }
}
