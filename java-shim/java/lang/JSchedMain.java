/*
 * Thread 0 of one execution when the agent runs several in one JVM (iterations=N, or the test
 * methods under a test runner): it runs the program's main, or a test method, as the launcher
 * would, and what it throws is uncaught in that thread as the launcher's would be.
 *
 * The static helpers are the Java side of the agent's driver (jvmti-agent/executions/executions.cpp): a
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
  /** A JUnit 5 test: its descriptor's methods run one after the other (jupiter()). */
  private final Object[] jupiter;
  /** The test's own abort (an assumption that did not hold): the driver passes it to JUnit. */
  private volatile Throwable aborted;
  /** The plain run (runPlainly): what the test threw is kept, not thrown. */
  private volatile boolean plain;
  private volatile Throwable thrown;
  /**
   * Thread 0's context loader in an execution of main (mainJob), whose thread 0 may be kept for
   * the next one (runKept); null for a test's.
   */
  private ClassLoader loader;

  private JSchedMain(Method method, Object target, Object[] args, Object[] jupiter) {
    this.method = method;
    this.target = target;
    this.args = args;
    this.jupiter = jupiter;
  }

  @Override
  public void run() {
    if (loader != null) {
      runKept();
    } else {
      runOnce();
    }
  }

  /**
   * Thread 0 of one execution of main after another: starting and ending a JVM thread costs
   * about as much as a small execution's own work, so a thread 0 that ended well in its
   * execution (leave) is made to look new (freshen) and waits for the next one (next). So is one
   * whose execution a finding elsewhere ended while it ran, once jsched's ThreadDeath has unwound
   * the program's frames (what it threw then is not the program's). One that cannot be kept
   * ends as before, what it threw uncaught.
   */
  private void runKept() {
    final Thread self = Thread.currentThread();
    final int priority = self.getPriority();
    for (JSchedMain job = this; job != null; ) {
      Throwable thrown = null;
      try {
        job.runOnce();
      } catch (Throwable t) {
        thrown = t;
      }
      if (!leave(thrown)) {
        if (thrown != null) JSchedMain.<RuntimeException>rethrow(thrown);
        return;
      }
      untrimmed = null;  // looked at and trimmed, or seen by nobody: not held for the next one
      job = next(freshen(self, priority));
    }
  }

  /**
   * What Thread.exit does to an ending thread, and what a new Thread("main") of the driver's
   * has: no thread-locals (a terminating one, NIO's buffer cache say, is told first), no
   * handler, no interrupt, its name and priority. False when it cannot (another JDK's Thread):
   * the thread then ends.
   */
  private static boolean freshen(Thread self, int priority) {
    try {
      jdk.internal.misc.TerminatingThreadLocal.threadTerminated();
      THREAD_LOCALS.set(self, null);
      INHERITABLE_THREAD_LOCALS.set(self, null);
      self.setUncaughtExceptionHandler(null);
      Thread.interrupted();
      if (!"main".equals(self.getName())) self.setName("main");
      if (self.getPriority() != priority) self.setPriority(priority);
      return true;
    } catch (Throwable t) {
      return false;
    }
  }

  /**
   * Thread 0 ends in its execution as the JVM would end it (`thrown` dispatched as uncaught), or
   * leaves an execution that ended elsewhere: true when it may be kept, false (nothing done)
   * when it must end for real.
   */
  private static native boolean leave(Throwable thrown);

  /**
   * Waits for the next execution's job and starts it as thread 0 there; null when `keep` is
   * false or another thread 0 is kept already (the caller ends).
   */
  private static native JSchedMain next(boolean keep);

  private void runOnce() {
    try {
      if (jupiter != null) {
        runJupiter();
      } else {
        method.invoke(target, args);
      }
    } catch (InvocationTargetException e) {
      fail(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /** What the test threw: uncaught in thread 0 (a finding), unless it is an abort. */
  private void fail(Throwable t) {
    if (isAbort(t)) {
      aborted = t;
      return;
    }
    if (plain) {
      thrown = t;
      return;
    }
    untrimmed = t;
    JSchedMain.<RuntimeException>rethrow(t);
  }

  /** JUnit's own way to skip a test from inside it: not a failure of the test. */
  private static boolean isAbort(Throwable t) {
    for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
      String n = c.getName();
      if (n.equals("org.junit.internal.AssumptionViolatedException")
          || n.equals("org.opentest4j.TestAbortedException")) {
        return true;
      }
    }
    return false;
  }

  // JUnit 5: prepare(parent) makes the test instance and its extension context, execute runs
  // the callbacks, set-up, the method and tear-down, cleanUp closes the context (@TempDir
  // directories, say). What they collect is the test's outcome.
  private void runJupiter() throws ReflectiveOperationException {
    Object descriptor = jupiter[0], parent = jupiter[1], dynamicTests = jupiter[2];
    Method prepare = find(descriptor.getClass(), "prepare", 1);
    Method execute = find(descriptor.getClass(), "jsched$execute", 2);
    Method cleanUp = find(descriptor.getClass(), "cleanUp", 1);
    Object context = prepare.invoke(descriptor, parent);
    Object collector = context.getClass().getMethod("getThrowableCollector").invoke(context);
    Throwable failed = null;
    try {
      execute.invoke(descriptor, context, dynamicTests);
    } catch (InvocationTargetException e) {
      failed = e.getCause();
    }
    if (failed == null) {
      failed = (Throwable) collector.getClass().getMethod("getThrowable").invoke(collector);
    }
    try {
      cleanUp.invoke(descriptor, context);
    } catch (InvocationTargetException e) {
      if (failed == null) failed = e.getCause();
    }
    if (failed != null) fail(failed);
  }

  private static Method find(Class<?> c, String name, int parameters)
      throws NoSuchMethodException {
    for (; c != null; c = c.getSuperclass()) {
      for (Method m : c.getDeclaredMethods()) {
        if (m.getName().equals(name) && m.getParameterCount() == parameters && !m.isBridge()) {
          m.setAccessible(true);
          return m;
        }
      }
    }
    throw new NoSuchMethodException(name);
  }

  /** A new thread 0 for one execution of this. */
  Thread thread() {
    return new Thread(this, "main");
  }

  Throwable aborted() {
    return aborted;
  }

  /**
   * The test run once as JUnit runs it, without jsched (the agent does not control the thread
   * it runs on): what it threw, or null when it passed, was skipped or did not end within
   * `millis`.
   */
  Throwable runPlainly(long millis) throws InterruptedException {
    plain = true;
    Thread t = new Thread(this, "main");
    t.setDaemon(true);
    t.start();
    t.join(millis);
    return t.isAlive() ? null : thrown;
  }

  /**
   * Thread 0's throwable whose driver frames are still there: trimmed only when someone looks
   * (trimIfDriven). The frames of a throwable cost about 25 us to read, and in a run whose
   * executions all end in one finding nobody reads those of the second and later ones.
   */
  private static volatile Throwable untrimmed;

  /**
   * Called by the agent before the stack of `t`, uncaught in a thread, is read or handed to a
   * handler: the trimming of fail(), if `t` is the throwable thread 0 threw there.
   */
  private static void trimIfDriven(Throwable t) {
    if (t == null || t != untrimmed) return;
    untrimmed = null;
    trimDriverFrames(t);
  }

  /**
   * Its stack ends at the test or main, as the launcher's would: the frames of the driver, of
   * reflection and of the test runner below it go.
   */
  private static void trimDriverFrames(Throwable t) {
    StackTraceElement[] st = t.getStackTrace();
    int n = st.length;
    while (n > 0 && isDriverFrame(st[n - 1])) --n;
    if (n == 0) return;
    StackTraceElement[] out = java.util.Arrays.copyOf(st, n);
    for (int i = 0; i < n; ++i) {  // a shared main class's main runs as jsched$main
      StackTraceElement e = out[i];
      if (!e.getMethodName().equals("jsched$main")) continue;
      // The launcher's loader goes unnamed in a frame's text ("app//" is not printed): a
      // frame made anew would print it.
      String loader = e.getClassLoaderName();
      if (loader != null && !e.toString().startsWith(loader + "/")) loader = null;
      out[i] = new StackTraceElement(loader, e.getModuleName(),
          e.getModuleVersion(), e.getClassName(), "main", e.getFileName(), e.getLineNumber());
    }
    t.setStackTrace(out);
  }

  private static boolean isDriverFrame(StackTraceElement e) {
    String c = e.getClassName();
    return c.startsWith("jdk.internal.reflect.") || c.startsWith("java.lang.reflect.")
        || c.startsWith("java.lang.invoke.") || c.equals("java.lang.JSchedMain")
        || c.equals("java.lang.Thread") || c.startsWith("org.junit.")
        || c.startsWith("org.opentest4j.");
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
    URLClassLoader loader = new URLClassLoader(classPath, ClassLoader.getPlatformClassLoader());
    registerJdbcDrivers(loader);
    return loader;
  }

  /**
   * JDBC drivers of the application class path, loaded through {@code loader}. DriverManager
   * looks for drivers (META-INF/services/java.sql.Driver) once per JVM, in the first
   * execution's loader, and hands a caller only drivers its own loader can see: the program
   * loaded afresh found "No suitable driver" from its second execution on, a failure of
   * jsched's making. Initializing each driver class registers it, as the first scan did.
   */
  private static void registerJdbcDrivers(ClassLoader loader) {
    try {
      java.util.Enumeration<URL> lists = loader.getResources("META-INF/services/java.sql.Driver");
      while (lists.hasMoreElements()) {
        try (java.io.BufferedReader in =
            new java.io.BufferedReader(
                new java.io.InputStreamReader(
                    lists.nextElement().openStream(), java.nio.charset.StandardCharsets.UTF_8))) {
          for (String line; (line = in.readLine()) != null; ) {
            int hash = line.indexOf('#');
            String name = (hash >= 0 ? line.substring(0, hash) : line).trim();
            if (name.isEmpty()) continue;
            try {
              Class.forName(name, true, loader);
            } catch (Throwable t) {
              // A driver that cannot load here would not have loaded in the first scan either.
            }
          }
        }
      }
    } catch (IOException e) {
      // No list to read: no driver to register.
    }
  }

  static void close(ClassLoader loader) throws IOException {
    ((URLClassLoader) loader).close();
  }

  /** The execution of `name.main(args)`, with `name` as `loader` defines it (threadFor). */
  static JSchedMain mainJob(String name, ClassLoader loader, String[] args)
      throws ReflectiveOperationException {
    // The launcher's copy of the main class keeps its body as jsched$main (its main hands over
    // to the driver); a copy of the driver's loaders has its own main.
    Class<?> c = Class.forName(name, false, loader);
    Method m;
    try {
      m = c.getDeclaredMethod("jsched$main", String[].class);
    } catch (NoSuchMethodException e) {
      m = c.getMethod("main", String[].class);
    }
    m.setAccessible(true);
    JSchedMain job = new JSchedMain(m, null, new Object[] {args.clone()}, null);
    job.loader = loader;
    return job;
  }

  /**
   * Whether a kept thread 0 looks like one the driver would start now: not if the driver's
   * thread has inheritable thread-locals, which a new thread would copy.
   */
  static boolean keepable() {
    try {
      return THREAD_LOCALS != null
          && INHERITABLE_THREAD_LOCALS != null
          && INHERITABLE_THREAD_LOCALS.get(Thread.currentThread()) == null;
    } catch (IllegalAccessException e) {
      return false;
    }
  }

  // Thread's thread-local maps (private from JDK 21 on: reflection, within java.base); null
  // where a JDK has no such field, and thread 0 is then never kept.
  private static final java.lang.reflect.Field THREAD_LOCALS = threadField("threadLocals");
  private static final java.lang.reflect.Field INHERITABLE_THREAD_LOCALS =
      threadField("inheritableThreadLocals");

  private static java.lang.reflect.Field threadField(String name) {
    try {
      java.lang.reflect.Field f = Thread.class.getDeclaredField(name);
      f.setAccessible(true);
      return f;
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Thread 0 for this job: `kept` (waiting in next) if not null, else a new one to start. */
  Thread threadFor(Thread kept) {
    Thread t = kept != null ? kept : new Thread(this, "main");
    // As the launcher's main thread has the loader of main as its context loader: code that
    // loads the program's classes through it (Clojure's runtime, service loaders, frameworks)
    // must get this execution's copies, not the launcher's.
    t.setContextClassLoader(loader);
    return t;
  }

  /** One execution of a JUnit 4 test: its statement, evaluated (a new test each time). */
  static JSchedMain junit4(Object statement) throws NoSuchMethodException {
    Method evaluate = statement.getClass().getMethod("evaluate");
    evaluate.setAccessible(true);
    return new JSchedMain(evaluate, statement, new Object[0], null);
  }

  /** One execution of a JUnit 3 test method: runJunit3 on thread 0. */
  static JSchedMain junit3(Object test) throws NoSuchMethodException {
    Method run = JSchedMain.class.getDeclaredMethod("runJunit3", Object.class);
    return new JSchedMain(run, null, new Object[] {test}, null);
  }

  /**
   * A JUnit 3 test's set-up, method and tear-down on an instance of its own, made inside the
   * execution as TestSuite makes them (its constructor and field initializers run controlled,
   * and no field keeps what an earlier execution left). `test` itself, in every execution, if
   * TestSuite cannot make one or `test` was configured after it was made (a suite builder that
   * hands each instance its subject, as guava's testlib does): setUp and tearDown still run in
   * each execution.
   */
  static void runJunit3(Object test) throws Throwable {
    Class<?> c = test.getClass();
    Object fresh = test;
    try {
      Class<?> suite = Class.forName("junit.framework.TestSuite", false, c.getClassLoader());
      Object name = c.getMethod("getName").invoke(test);
      Object made =
          suite.getMethod("createTest", Class.class, String.class).invoke(null, c, name);
      if (c.isInstance(made) && !configuredAfterMade(test, made)) fresh = made;
    } catch (ReflectiveOperationException | RuntimeException e) {
      // No TestSuite to make one (a TestCase run some other way): the instance JUnit made.
    }
    Method bare = find(c, "jsched$runBare", 0);
    try {
      bare.invoke(fresh);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /**
   * Whether a field of the test's own classes (below TestCase) is set in `test` and still empty
   * (null, zero, false) in a `made` the way TestSuite makes one: someone set it after
   * construction, and a fresh instance would run without it.
   */
  private static boolean configuredAfterMade(Object test, Object made)
      throws IllegalAccessException {
    for (Class<?> k = test.getClass();
        k != null && !k.getName().equals("junit.framework.TestCase");
        k = k.getSuperclass()) {
      for (java.lang.reflect.Field f : k.getDeclaredFields()) {
        if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) continue;
        f.setAccessible(true);
        if (isEmpty(f.get(made)) && !isEmpty(f.get(test))) return true;
      }
    }
    return false;
  }

  private static boolean isEmpty(Object v) {
    return v == null
        || Boolean.FALSE.equals(v)
        || (v instanceof Number && ((Number) v).doubleValue() == 0)
        || (v instanceof Character && (Character) v == 0);
  }

  /** One execution of a JUnit 5 test method (runJupiter). */
  static JSchedMain jupiter(Object descriptor, Object parent, Object dynamicTests) {
    return new JSchedMain(null, null, null, new Object[] {descriptor, parent, dynamicTests});
  }
}
