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
 * buggy program's assertion) counts as an execution: the line says how many did.
 *
 * Usage: java -cp bench-classes:program.jar MainLoop [--same-loader] N MainClass args...
 */
public class MainLoop {
  public static void main(String[] argv) throws Exception {
    int a = 0;
    boolean same = argv[a].equals("--same-loader");
    if (same) ++a;
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
    for (int i = 0; i < n; ++i) {
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
        "%d executions (%d threw) in %.3f s: %.1f per second%n", n, threw, secs, n / secs);
  }
}
