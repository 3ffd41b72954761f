// A worker that computes in stretches of some 150 ms without a scheduling point, a volatile
// write between them, while main waits to join it: never a hang, however long the process is
// stopped in the middle of a stretch (SIGSTOP, a suspended or overloaded machine).
public class LongStretches {
  static volatile long progress;

  public static void main(String[] args) throws InterruptedException {
    Thread worker = new Thread(() -> {
      long h = 17;
      for (int stretch = 0; stretch < 12; stretch++) {
        for (int i = 0; i < 200_000_000; i++) h = h * 31 + i;
        progress = h;
      }
    });
    System.out.println("started");
    System.out.flush();
    worker.start();
    worker.join();
    System.out.println("done " + (progress != 0));
  }
}
