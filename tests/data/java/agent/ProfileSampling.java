// One instruction that misses its per-instruction cache at every access, far past the point
// where profile runs sample its misses: objects of two allocation sites in turn (A and B, 6,000
// accesses each), then a second thread that touches only the B objects, at the same instruction.
// The sampled counts stay near the true ones and B is found shared, A not. Reads of a final
// number are not counted at all.
public class ProfileSampling {
  static final class Box {
    int v;
    final int weight = 1;
  }

  static int touch(Box b) {
    return b.v; // the instruction
  }

  public static void main(String[] args) throws Exception {
    final int n = 3000;
    Box[] as = new Box[n];
    Box[] bs = new Box[n];
    for (int i = 0; i < n; i++) as[i] = new Box(); // A
    for (int i = 0; i < n; i++) bs[i] = new Box(); // B
    int sum = 0;
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < n; i++) sum += touch(as[i]) + touch(bs[i]);
    }
    for (int i = 0; i < 1000; i++) sum += bs[i].weight; // a final number: not counted
    int[] other = new int[1];
    Thread t =
        new Thread(
            () -> {
              for (int i = 0; i < n; i++) other[0] += touch(bs[i]);
            });
    t.start();
    t.join();
    System.out.println("sum " + (sum + other[0]));
  }
}
