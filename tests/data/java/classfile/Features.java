// Exercises many class-file features for the round-trip and decoding tests.
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntSupplier;

public class Features {
  static final long BIG = 0x123456789abcdefL;
  static final double D = Double.longBitsToDouble(0x7ff8000000000123L);
  static final float F = Float.intBitsToFloat(0x7fc00123);
  private final Object lock = new Object();
  private int counter;

  sealed interface Shape permits Circle, Square {}
  record Circle(double r) implements Shape {}
  record Square(double side) implements Shape {}
  enum Color { RED, GREEN, BLUE }

  int table(int x) {
    switch (x) {
      case 1: return 10;
      case 2: return 20;
      case 3: return 30;
      case 4: return 40;
      default: return -1;
    }
  }

  int lookup(int x) {
    switch (x) {
      case -1000000: return 1;
      case 7: return 2;
      case 123456: return 3;
      default: return 0;
    }
  }

  String strings(String s) {
    switch (s) {
      case "alpha": return "a";
      case "beta": return "b";
      default: return "?";
    }
  }

  int colors(Color c) {
    return switch (c) {
      case RED -> 1;
      case GREEN -> 2;
      case BLUE -> 3;
    };
  }

  double area(Shape s) {
    if (s instanceof Circle c) return Math.PI * c.r() * c.r();
    if (s instanceof Square q) return q.side() * q.side();
    return 0;
  }

  synchronized void syncMethod() { counter++; }

  void syncBlock() {
    synchronized (lock) {
      synchronized (this) {
        counter++;
      }
    }
  }

  int tryCatchFinally(int[] a) {
    try {
      return a[3];
    } catch (ArrayIndexOutOfBoundsException | NullPointerException e) {
      return -1;
    } finally {
      counter++;
    }
  }

  int lambdas() {
    int base = counter;
    IntSupplier s = () -> base + 1;
    List<Integer> l = new ArrayList<>();
    l.add(s.getAsInt());
    return l.stream().mapToInt(Integer::intValue).sum();
  }

  int[][][] multi() { return new int[2][3][4]; }

  long wideLocals(long a, long b) {
    long l0 = a, l1 = b, l2 = a + b, l3 = a - b, l4 = a * b, l5 = 1, l6 = 2, l7 = 3, l8 = 4, l9 = 5;
    long m0 = l0 + l1, m1 = l2 + l3, m2 = l4 + l5, m3 = l6 + l7, m4 = l8 + l9;
    long n0 = m0, n1 = m1, n2 = m2, n3 = m3, n4 = m4, n5 = n0 + n1, n6 = n2 + n3, n7 = n4 + n5;
    long o0 = n6, o1 = n7, o2 = o0 + o1, o3 = o2, o4 = o3, o5 = o4, o6 = o5, o7 = o6, o8 = o7;
    long p0 = o8, p1 = p0, p2 = p1, p3 = p2, p4 = p3, p5 = p4, p6 = p5, p7 = p6, p8 = p7, p9 = p8;
    long q0 = p9, q1 = q0, q2 = q1, q3 = q2, q4 = q3, q5 = q4, q6 = q5, q7 = q6, q8 = q7, q9 = q8;
    long r0 = q9, r1 = r0, r2 = r1, r3 = r2, r4 = r3, r5 = r4, r6 = r5, r7 = r6, r8 = r7, r9 = r8;
    long s0 = r9, s1 = s0, s2 = s1, s3 = s2, s4 = s3, s5 = s4, s6 = s5, s7 = s6, s8 = s7, s9 = s8;
    long t0 = s9, t1 = t0, t2 = t1, t3 = t2, t4 = t3, t5 = t4, t6 = t5, t7 = t6, t8 = t7, t9 = t8;
    long u0 = t9, u1 = u0, u2 = u1, u3 = u2, u4 = u3, u5 = u4, u6 = u5, u7 = u6, u8 = u7, u9 = u8;
    long v0 = u9, v1 = v0, v2 = v1, v3 = v2, v4 = v3, v5 = v4, v6 = v5, v7 = v6, v8 = v7, v9 = v8;
    long w0 = v9, w1 = w0, w2 = w1, w3 = w2, w4 = w3, w5 = w4, w6 = w5, w7 = w6, w8 = w7, w9 = w8;
    long x0 = w9, x1 = x0, x2 = x1, x3 = x2, x4 = x3, x5 = x4, x6 = x5, x7 = x6, x8 = x7, x9 = x8;
    long y0 = x9, y1 = y0, y2 = y1, y3 = y2, y4 = y3, y5 = y4, y6 = y5, y7 = y6, y8 = y7, y9 = y8;
    long z0 = y9, z1 = z0, z2 = z1, z3 = z2, z4 = z3, z5 = z4, z6 = z5, z7 = z6, z8 = z7, z9 = z8;
    long a0 = z9, a1 = a0, a2 = a1, a3 = a2, a4 = a3, a5 = a4, a6 = a5, a7 = a6, a8 = a7, a9 = a8;
    long b0 = a9, b1 = b0, b2 = b1, b3 = b2, b4 = b3, b5 = b4, b6 = b5, b7 = b6, b8 = b7, b9 = b8;
    int i = 0;
    for (int k = 0; k < 3; k++) i += 1000;  // iinc with a large constant needs wide
    return b9 + i;
  }

  interface WithDefault {
    default int value() { return 42; }
  }

  class Inner {
    int get() { return counter; }
  }

  public static void main(String[] args) {
    Features f = new Features();
    System.out.println(f.table(3) + f.lookup(7) + f.strings("beta") + f.colors(Color.BLUE)
        + f.area(new Circle(1)) + f.tryCatchFinally(new int[2]) + f.lambdas() + f.wideLocals(1, 2)
        + f.multi().length + BIG + D + F);
  }
}
