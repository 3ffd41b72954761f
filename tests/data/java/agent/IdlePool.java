import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Uses a fixed pool and never shuts it down: its workers are left waiting for work. */
public class IdlePool {
  public static void main(String[] args) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    Future<Integer> a = pool.submit(() -> 20);
    Future<Integer> b = pool.submit(() -> 22);
    System.out.println("result=" + (a.get() + b.get()));
  }
}
