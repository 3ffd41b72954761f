// Two threads take two locks in opposite orders: a deadlock under some schedules.
public class LockOrder {
  static final Object a = new Object(), b = new Object();
  public static void main(String[] args) throws Exception {
    Thread t1 = new Thread(() -> { synchronized (a) { synchronized (b) { } } });
    Thread t2 = new Thread(() -> { synchronized (b) { synchronized (a) { } } });
    t1.start();
    t2.start();
    t1.join();
    t2.join();
    System.out.println("done");
  }
}
