import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

// Prints one line drawn from every unseeded source of chance a program may use, in two threads:
// under jsched a seed (and the schedule it gives) determines the line.
public class ChanceSources {
  static class Plain {  // no hashCode: a HashSet orders these by identity hash
    final int n;

    Plain(int n) {
      this.n = n;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    StringBuilder out = new StringBuilder();
    Thread other = new Thread(() -> {
      synchronized (out) {
        out.append(" tlr=").append(ThreadLocalRandom.current().nextInt(1000));
      }
    });
    other.start();
    other.join();
    List<Integer> list = new ArrayList<>(List.of(1, 2, 3, 4, 5, 6, 7, 8));
    Collections.shuffle(list);
    Set<Plain> set = new HashSet<>();
    for (int i = 0; i < 8; i++) set.add(new Plain(i));
    StringBuilder order = new StringBuilder();
    for (Plain p : set) order.append(p.n);
    synchronized (out) {
      out.append(" random=").append(new Random().nextInt(1000))
          .append(" math=").append((int) (Math.random() * 1000))
          .append(" uuid=").append(UUID.randomUUID())
          .append(" split=").append(new SplittableRandom().nextInt(1000))
          .append(" shuffle=").append(list)
          .append(" hashset=").append(order);
    }
    System.out.println(out.toString().trim());
  }
}
