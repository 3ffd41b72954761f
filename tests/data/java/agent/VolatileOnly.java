/** One volatile field and one plain field, read and written the same number of times. */
public class VolatileOnly {
  static class Box {
    volatile int hot;
    int cold;
  }

  public static void main(String[] args) {
    Box b = new Box();
    for (int i = 0; i < 5; i++) {
      b.hot = b.hot + 1;
      b.cold = b.cold + 1;
    }
    System.out.println(b.hot + b.cold);
  }
}
