import java.io.OutputStream;
import java.io.PrintStream;

// A program that puts a stream of its own in System.out whose flush waits for something that
// never comes (as a console's stream piped to a thread of its own waits for that thread when
// jsched has stopped it), then fails in a thread: jsched reports the bug and ends; it never
// waits for the program's stream.
public class OwnStdout {
  public static void main(String[] args) throws InterruptedException {
    System.setOut(new PrintStream(new OutputStream() {
      @Override
      public void write(int b) {}

      @Override
      public synchronized void flush() {
        try {
          wait();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }));
    Thread worker = new Thread(() -> {
      throw new IllegalStateException("worker failed");
    });
    worker.start();
    worker.join();
  }
}
