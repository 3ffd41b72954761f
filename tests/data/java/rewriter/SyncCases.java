// Synchronization shapes the rewriter must handle; prints a deterministic transcript.
import java.util.ArrayList;
import java.util.List;

public class SyncCases {
  private int count;
  private long big;
  private double d;
  private static int statics;
  private final Object lock = new Object();

  synchronized void inc() { count++; }

  synchronized int manyReturns(int x) {
    if (x < 0) return -1;
    if (x == 0) return 0;
    for (int i = 0; i < 10; i++) {
      if (i == x) return i * 10;
    }
    switch (x) {
      case 11: return 110;
      case 12: return 120;
      default: return 999;
    }
  }

  synchronized long longReturn(long a) { big += a; return big; }

  synchronized double doubleReturn(double a) { d += a; return d; }

  static synchronized int staticSync() { return ++statics; }

  synchronized void thrower(boolean b) {
    if (b) throw new IllegalStateException("thrown while holding the monitor");
    count++;
  }

  synchronized int recursive(int n) { return n <= 0 ? 0 : n + recursive(n - 1); }

  void nestedBlocks() {
    synchronized (lock) {
      synchronized (this) {
        synchronized (lock) {
          count++;
        }
      }
    }
  }

  int exceptionExitingBlock() {
    try {
      synchronized (lock) {
        count++;
        Object o = null;
        return o.hashCode();
      }
    } catch (NullPointerException e) {
      return Thread.holdsLock(lock) ? -100 : -1;
    }
  }

  // A constructor calling synchronized methods (the callees are de-synchronized; the
  // constructor itself has no monitor).
  SyncCases() {
    inc();
    inc();
  }

  SyncCases(int n) {
    this();
    for (int i = 0; i < n; i++) inc();
  }

  class Inner {  // putfield this$0 before super(): the receiver is uninitializedThis
    final int v;
    Inner(int v) {
      super();
      this.v = v + count;
    }
  }

  static class Base {
    final Object o;
    Base(Object o) { this.o = o; }
  }

  static class Derived extends Base {
    // A branch before super() gives frames with uninitializedThis and flagThisUninit.
    Derived(int x) { super(x > 0 ? new ArrayList<String>() : (Object) "neg"); }
  }

  static int arrays() {
    int[] ia = new int[4];
    long[] la = new long[4];
    double[] da = new double[4];
    float[] fa = new float[4];
    byte[] ba = new byte[4];
    char[] ca = new char[4];
    short[] sa = new short[4];
    boolean[] za = new boolean[4];
    String[] oa = new String[4];
    int[][] mm = new int[2][3];
    int s = 0;
    for (int i = 0; i < 4; i++) {
      ia[i] = i; la[i] = i; da[i] = i; fa[i] = i; ba[i] = (byte) i; ca[i] = (char) ('a' + i);
      sa[i] = (short) i; za[i] = i % 2 == 0; oa[i] = "s" + i; mm[i % 2][i % 3] = i;
    }
    for (int i = 0; i < 4; i++) {
      s += ia[i] + (int) la[i] + (int) da[i] + (int) fa[i] + ba[i] + ca[i] + sa[i] + (za[i] ? 1 : 0)
          + oa[i].length() + mm[i % 2][i % 3];
    }
    return s;
  }

  public static void main(String[] args) throws Exception {
    SyncCases c = new SyncCases(3);
    System.out.println("count=" + c.count);
    System.out.println("manyReturns " + c.manyReturns(-5) + " " + c.manyReturns(0) + " "
        + c.manyReturns(4) + " " + c.manyReturns(11) + " " + c.manyReturns(50));
    System.out.println("long " + c.longReturn(1L << 40) + " double " + c.doubleReturn(2.5));
    System.out.println("static " + staticSync() + " " + staticSync());
    try {
      c.thrower(true);
    } catch (IllegalStateException e) {
      System.out.println("caught " + e.getMessage() + " holds=" + Thread.holdsLock(c));
    }
    c.thrower(false);
    System.out.println("recursive " + c.recursive(10));
    c.nestedBlocks();
    System.out.println("exceptionExiting " + c.exceptionExitingBlock() + " holds="
        + Thread.holdsLock(c.lock));
    System.out.println("inner " + c.new Inner(5).v);
    System.out.println("derived " + new Derived(1).o.getClass().getSimpleName() + " "
        + new Derived(-1).o);
    System.out.println("arrays " + arrays());
    List<Integer> l = new ArrayList<>();
    for (int i = 0; i < 5; i++) l.add(i);
    System.out.println("list " + l);
    System.out.println("final count=" + c.count);
  }
}
