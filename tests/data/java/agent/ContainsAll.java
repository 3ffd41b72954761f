import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Vector;

// The containsAll race of Sen's RAPOS paper, section 5.1 (docs/references.md), reduced to two
// threads: a.containsAll(b) iterates over b without b's lock while another thread adds to b. Inside
// java.util only: found only when the agent instruments it (include=java.util.).
public class ContainsAll {
  public static void main(String[] args) throws Exception {
    boolean vector = args.length == 0 || args[0].equals("vector");
    List<Integer> a = vector ? new Vector<>() : Collections.synchronizedList(new ArrayList<>());
    List<Integer> b = vector ? new Vector<>() : Collections.synchronizedList(new ArrayList<>());
    for (int i = 0; i < 3; i++) {
      a.add(i);
      b.add(i);
    }
    Thread check = new Thread(() -> a.containsAll(b));
    Thread add = new Thread(() -> b.add(9));
    check.start();
    add.start();
    check.join();
    add.join();
  }
}
