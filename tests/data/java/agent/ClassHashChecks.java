import java.util.ArrayList;
import java.util.List;

// Prints the hash codes of two classes a thread loads after `n` other threads have come and
// gone. The JVM draws identity hashes from a generator of the hashing thread, seeded at that
// thread's creation from a sequence every thread's creation advances: without jsched the hashes
// change with n (as they do with the threads the JVM starts on its own, at moments real time
// decides); under jsched they do not.
public class ClassHashChecks {
  static class Loaded {}

  static class AlsoLoaded {}

  public static void main(String[] args) throws Exception {
    int n = Integer.parseInt(args[0]);
    List<Thread> idle = new ArrayList<>();
    for (int i = 0; i < n; i++) idle.add(new Thread(() -> {}));
    for (Thread t : idle) t.start();
    for (Thread t : idle) t.join();
    StringBuilder out = new StringBuilder();
    Thread worker =
        new Thread(
            () -> out.append(Loaded.class.hashCode()).append(' ').append(AlsoLoaded.class.hashCode()));
    worker.start();
    worker.join();
    System.out.println(out);
  }
}
