import java.util.HashMap;
import java.util.Map;

/**
 * Two workers each read 500 times through one kind of final field (the argument names it): a
 * Counter's plain field (an application class jsched instruments whole), a String's length, a
 * JDK HashMap, and a Registry that extends HashMap (an application class whose inherited code is
 * the JDK's). Under accesses=shared only the map and the registry make the read of their final
 * field a point; the counter's own field is one.
 */
public class FinalReaches {
  static final class Counter {
    int n = 1;
  }

  static final class Registry extends HashMap<String, Integer> {}

  static final Counter counter = new Counter();
  static final String name = String.valueOf(42);
  static final Map<String, Integer> map = new HashMap<>();
  static final Registry registry = new Registry();

  static long read(String kind) {
    long sum = 0;
    for (int i = 0; i < 500; i++) {
      switch (kind) {
        case "counter":
          sum += counter.n;
          break;
        case "string":
          sum += name.length();
          break;
        case "map":
          sum += map.size();
          break;
        default:
          sum += registry.size();
      }
    }
    return sum;
  }

  public static void main(String[] args) throws InterruptedException {
    final String kind = args[0];
    Thread a = new Thread(() -> read(kind)), b = new Thread(() -> read(kind));
    a.start();
    b.start();
    a.join();
    b.join();
    System.out.println("done");
  }
}
