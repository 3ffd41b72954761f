// A worker ends the JVM with System.exit(7) while main waits for it: the program never runs to
// its own end, which a report must not call "ok".
public class ExitInWorker {
  public static void main(String[] args) throws InterruptedException {
    Thread worker = new Thread(() -> System.exit(7));
    worker.start();
    worker.join();
    System.out.println("not reached");
  }
}
