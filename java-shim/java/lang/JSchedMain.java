/*
 * Thread 0 of one execution when the agent runs several in one JVM (iterations=N, or the test
 * methods under a test runner): it runs the program's main, or a test method, as the launcher
 * would, and what it throws is uncaught in that thread as the launcher's would be.
 *
 * The static helpers are the Java side of the agent's driver (jvmti-agent/executions.cpp): a
 * class loader of the driver's over the application class path (one for every execution, whose
 * statics java.lang.JSchedStatics makes clean, or one per execution).
 *
 * Defined by the agent in the boot loader next to java.lang.JSchedShim.
 */
package java.lang;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;

final class JSchedMain implements Runnable {
  private final Method method;
  private final Object target;
  private final Object[] args;

  private JSchedMain(Method method, Object target, Object[] args) {
    this.method = method;
    this.target = target;
    this.args = args;
  }

  @Override
  public void run() {
    try {
      method.invoke(target, args);
    } catch (InvocationTargetException e) {
      Throwable t = e.getCause();
      trimDriverFrames(t);
      JSchedMain.<RuntimeException>rethrow(t);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Its stack ends at main (or the test method), as the launcher's would, and a test method's
   * body has the test's name again.
   */
  private static void trimDriverFrames(Throwable t) {
    StackTraceElement[] st = t.getStackTrace();
    int n = st.length;
    while (n > 0 && isDriverFrame(st[n - 1])) --n;
    if (n == 0) return;
    StackTraceElement[] out = java.util.Arrays.copyOf(st, n);
    for (int i = 0; i < n; ++i) {
      String m = out[i].getMethodName();
      if (m.startsWith(TEST_BODY)) {
        StackTraceElement e = out[i];
        out[i] = new StackTraceElement(e.getClassLoaderName(), e.getModuleName(),
            e.getModuleVersion(), e.getClassName(), m.substring(TEST_BODY.length()),
            e.getFileName(), e.getLineNumber());
      }
    }
    t.setStackTrace(out);
  }

  /** The prefix of a test method's body (rewriter/test_methods.h). */
  private static final String TEST_BODY = "jsched$test$";

  private static boolean isDriverFrame(StackTraceElement e) {
    String c = e.getClassName();
    return c.startsWith("jdk.internal.reflect.") || c.equals("java.lang.reflect.Method")
        || c.equals("java.lang.JSchedMain") || c.equals("java.lang.Thread");
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> void rethrow(Throwable t) throws T {
    throw (T) t;
  }

  private static URL[] classPath;

  /** A new loader over the application class path. */
  static ClassLoader freshLoader() throws MalformedURLException {
    if (classPath == null) {
      String[] parts = System.getProperty("java.class.path", ".").split(File.pathSeparator);
      URL[] urls = new URL[parts.length];
      for (int i = 0; i < parts.length; ++i) {
        urls[i] = new File(parts[i].isEmpty() ? "." : parts[i]).toURI().toURL();
      }
      classPath = urls;
    }
    return new URLClassLoader(classPath, ClassLoader.getPlatformClassLoader());
  }

  static void close(ClassLoader loader) throws IOException {
    ((URLClassLoader) loader).close();
  }

  /** Thread 0 of an execution of `name.main(args)`, with `name` as `loader` defines it. */
  static Thread mainThread(String name, ClassLoader loader, String[] args)
      throws ReflectiveOperationException {
    Method m = Class.forName(name, false, loader).getMethod("main", String[].class);
    m.setAccessible(true);
    Thread t = new Thread(new JSchedMain(m, null, new Object[] {args.clone()}), "main");
    // As the launcher's main thread has the loader of main as its context loader: code that
    // loads the program's classes through it (Clojure's runtime, service loaders, frameworks)
    // must get this execution's copies, not the launcher's.
    t.setContextClassLoader(loader);
    return t;
  }

  /**
   * Thread 0 of an execution of the test method `name()` of `target` (declared by its class or
   * a superclass: a test class may inherit its tests).
   */
  static Thread testThread(Object target, String name) throws NoSuchMethodException {
    for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
      for (Method m : c.getDeclaredMethods()) {
        if (m.getName().equals(name) && m.getParameterCount() == 0) {
          m.setAccessible(true);
          return new Thread(new JSchedMain(m, target, new Object[0]), "main");
        }
      }
    }
    throw new NoSuchMethodException(target.getClass().getName() + "." + name + "()");
  }
}
