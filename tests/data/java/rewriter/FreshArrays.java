// Arrays a method allocates and keeps to itself, and the ways they stop being its own
// (rewriter_model_test.cpp, FreshArrays: each method's array stores that stay scheduling
// points are listed there).
import java.util.List;

public class FreshArrays {
  static int[] published;
  int[] field;

  static void sink(int[] a) {}

  // Filled, then returned: no store is a point.
  static int[] fill(int n) {
    int[] a = new int[n];
    for (int i = 0; i < n; i++) a[i] = i * 3;
    return a;
  }

  // The store after the array went to a field is a point.
  static void published() {
    int[] a = new int[4];
    a[0] = 1;
    published = a;
    a[1] = 2;
  }

  // Passed to a method: the store after is a point.
  static void passed() {
    int[] a = new int[4];
    a[0] = 1;
    sink(a);
    a[1] = 2;
  }

  // An alias leaves: the store through the original name is a point.
  void aliasLeaves() {
    int[] a = new int[2];
    int[] b = a;
    field = b;
    a[0] = 1;
  }

  // Maybe another array: a point.
  void merged(boolean c) {
    int[] a = c ? new int[2] : field;
    a[0] = 1;
  }

  // An alias that one path made and the other did not, then leaves: a point.
  void mergedAlias(boolean c, int[] other) {
    int[] a = new int[2];
    int[] b = c ? a : other;
    field = b;
    a[0] = 1;
  }

  // Through a cast, then leaves: a point.
  void castLeaves() {
    int[] a = new int[2];
    Object o = a;
    int[] b = (int[]) o;
    field = b;
    a[0] = 1;
  }

  // A new array each round, stored before it leaves: no point.
  static void eachRound(List<int[]> out) {
    for (int i = 0; i < 3; i++) {
      int[] a = new int[1];
      a[0] = i;
      out.add(a);
    }
  }

  // One array, left in the first round: the store is a point (the second round).
  static void leftInTheFirstRound() {
    int[] a = new int[1];
    for (int i = 0; i < 3; i++) {
      a[0] = i;
      sink(a);
    }
  }

  // A handler after a call that took the array: its store is a point, the one before not.
  static void handler() {
    int[] a = new int[2];
    try {
      a[0] = 1;
      sink(a);
    } catch (RuntimeException e) {
      a[1] = 2;
    }
  }

  // Elements of a fresh array of arrays are not fresh themselves: one point.
  static void nested() {
    int[][] m = new int[2][2];
    m[0][1] = 5;
  }
}
