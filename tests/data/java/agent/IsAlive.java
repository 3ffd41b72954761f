// Thread.isAlive() under control: a loop that spins on it lets the thread run (a scheduling
// point), and a thread the model saw end is not alive, though its JVM thread may still be
// finishing (commons-pool's testErrorFactoryDoesNotBlockThreads polls so, with sleeps that take
// no real time).
public class IsAlive {
  public static void main(String[] args) throws Exception {
    Thread spun = new Thread(() -> {});
    spun.start();
    while (spun.isAlive()) {
      // no scheduling point but the call itself
    }
    Thread polled = new Thread(() -> {});
    polled.start();
    for (int i = 0; i < 3 && polled.isAlive(); i++) Thread.sleep(200);
    if (polled.isAlive()) throw new AssertionError("alive after 600 ms with nothing to do");
    System.out.println("alive ok");
  }
}
