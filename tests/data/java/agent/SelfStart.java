// Thread subclasses that start themselves in their constructor (real code does: a console's
// output reader, a library's watcher): `this` escapes before the constructor returns, the new
// thread runs and locks the object while its creator still constructs it. Each must be the
// model's thread, and the object one monitor, under the name it had when it escaped.
public class SelfStart {
  static class Worker extends Thread {
    int n;

    Worker() {
      start();
      synchronized (this) {
        n++;
      }
    }

    @Override
    public void run() {
      synchronized (this) {
        n++;
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Worker[] ws = new Worker[3];
    for (int i = 0; i < ws.length; i++) ws[i] = new Worker();
    for (Worker w : ws) w.join();
    for (Worker w : ws) {
      if (w.n != 2) throw new AssertionError("n = " + w.n);
    }
    System.out.println("self-start ok");
  }
}
