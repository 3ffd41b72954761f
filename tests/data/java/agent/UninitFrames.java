// A `new` of another class whose constructor's arguments branch: the frames inside name the
// uninitialized object by the offset of its `new`, and statics reset puts a call before that
// `new` (httpcore's BHttpConnectionBase, guice's Initializer: `new X(a != null ? a : b)`).
public class UninitFrames {
  static final class Box {
    final int value;

    Box(int value, String why) {
      this.value = value;
    }
  }

  static int count;

  static Box make(Integer v, boolean loud) {
    return new Box(v != null ? v : -1, loud ? "loud" : null);
  }

  public static void main(String[] args) throws Exception {
    Thread t = new Thread(() -> {
      synchronized (UninitFrames.class) {
        count += make(2, true).value;
      }
    });
    t.start();
    synchronized (UninitFrames.class) {
      count += make(null, false).value;
    }
    t.join();
    if (count != 1) throw new AssertionError("count " + count);
    System.out.println("frames ok");
  }
}
