import java.io.File;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * The uninstrumented baseline of bench/iterations.sh: runs a program's main N times in this
 * JVM, each time from a class loader of its own over the class path (as iterations=N does, so
 * that static state starts clean), or with `--same-loader` from one loader. Prints the
 * executions per second on stderr; the program's output is discarded. A main that throws (a
 * buggy program's assertion) counts as an execution: the line says how many did. One that has
 * not ended after 10 s (a buggy program that deadlocked on the plain JVM) ends the loop with a
 * line that says so and exit status 3: no rate.
 *
 * With `--seconds S` the loop stops once S seconds have passed (programs that sleep for real).
 *
 * Usage: java -cp bench-classes:program.jar MainLoop [--same-loader] [--seconds S] N MainClass
 * args...
 */
public class MainLoop {
  public static void main(String[] argv) throws Exception {
    int a = 0;
    boolean same = argv[a].equals("--same-loader");
    if (same) ++a;
    double seconds = Double.MAX_VALUE;
    if (argv[a].equals("--seconds")) {
      seconds = Double.parseDouble(argv[a + 1]);
      a += 2;
    }
    int n = Integer.parseInt(argv[a++]);
    String name = argv[a++];
    String[] args = java.util.Arrays.copyOfRange(argv, a, argv.length);
    String[] parts = System.getProperty("java.class.path").split(File.pathSeparator);
    URL[] urls = new URL[parts.length];
    for (int i = 0; i < parts.length; ++i) urls[i] = new File(parts[i]).toURI().toURL();
    PrintStream out = System.out;
    System.setOut(new PrintStream(java.io.OutputStream.nullOutputStream()));
    ClassLoader shared = new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
    int threw = 0;
    long start = System.nanoTime();
    final long[] current = {System.nanoTime(), 0};  // this execution's start, its number
    Thread watchdog =
        new Thread(
            () -> {
              for (; ; ) {
                long since;
                synchronized (current) {
                  since = System.nanoTime() - current[0];
                }
                if (since > 10_000_000_000L) {
                  System.err.println(
                      "MainLoop: execution " + current[1] + " of " + name + " did not end"
                          + " within 10 s (it hung on the plain JVM): no rate");
                  Runtime.getRuntime().halt(3);
                }
                try {
                  Thread.sleep(100);
                } catch (InterruptedException e) {
                  return;
                }
              }
            });
    watchdog.setDaemon(true);
    watchdog.start();
    int done = 0;
    for (int i = 0; i < n && (System.nanoTime() - start) / 1e9 < seconds; ++i) {
      ++done;
      synchronized (current) {
        current[0] = System.nanoTime();
        current[1] = i;
      }
      ClassLoader loader =
          same ? shared : new URLClassLoader(urls, ClassLoader.getPlatformClassLoader());
      Method m = Class.forName(name, true, loader).getMethod("main", String[].class);
      try {
        m.invoke(null, (Object) args.clone());
      } catch (java.lang.reflect.InvocationTargetException e) {
        ++threw;
      }
      if (!same) ((URLClassLoader) loader).close();
    }
    double secs = (System.nanoTime() - start) / 1e9;
    System.setOut(out);
    System.err.printf(
        "%d executions (%d threw) in %.3f s: %.1f per second%n", done, threw, secs, done / secs);
  }
}
