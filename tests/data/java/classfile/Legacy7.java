// Compiled with --release 7 (class version 51): no lambdas, StackMapTable frames present.
public class Legacy7 {
  public int loop(int n) {
    int s = 0;
    for (int i = 0; i < n; i++) {
      if ((i & 1) == 0) s += i; else s -= 1;
    }
    return s;
  }
}
