// main waits for a notify nobody sends: every run is a deadlock, at its first scheduling point.
public class AlwaysDeadlocks {
  public static void main(String[] args) throws InterruptedException {
    Object never = new Object();
    synchronized (never) {
      never.wait();
    }
  }
}
