/**
 * main throws in every execution, from a method it calls. With argument "handler" the program
 * installs a default uncaught-exception handler of its own that prints the frames it is given:
 * what the program sees must end at main, as the launcher's would, in every execution.
 */
public class MainAlwaysThrows {
  static int rounds;

  public static void main(String[] args) {
    if (args.length > 0 && args[0].equals("handler")) {
      Thread.setDefaultUncaughtExceptionHandler(
          (t, e) -> {
            StringBuilder b = new StringBuilder("handler saw " + e.getMessage() + ":");
            for (StackTraceElement f : e.getStackTrace()) b.append(' ').append(f.getMethodName());
            System.out.println(b);
          });
    }
    fail(++rounds);
  }

  static void fail(int round) {
    throw new IllegalStateException("round " + round);
  }
}
