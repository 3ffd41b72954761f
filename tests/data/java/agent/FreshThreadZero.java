import java.util.Properties;

/**
 * Each execution's main checks that its thread looks new: none of what main left on its thread
 * in an earlier execution (thread-locals, a handler, an interrupt, a name, a priority, a context
 * loader) is there, and then leaves all of them changed. What survives from one execution to the
 * next lives in the system properties (the JDK's, which no statics reset touches). Of every
 * three executions, the first returns, the second is ended by a finding in another thread while
 * main waits, and the third's main throws ("planned"); in the first and third a helper joins main
 * after it returned, and must find it ended.
 */
public class FreshThreadZero {
  public static void main(String[] args) throws Exception {
    Properties shared = System.getProperties();
    @SuppressWarnings("unchecked")
    ThreadLocal<String> local = (ThreadLocal<String>) shared.get("fresh.local");
    @SuppressWarnings("unchecked")
    InheritableThreadLocal<String> inherited =
        (InheritableThreadLocal<String>) shared.get("fresh.inherited");
    if (local == null) {
      local = new ThreadLocal<>();
      inherited = new InheritableThreadLocal<>();
      shared.put("fresh.local", local);
      shared.put("fresh.inherited", inherited);
    }
    int n = (Integer) shared.getOrDefault("fresh.n", 0);
    shared.put("fresh.n", n + 1);
    Thread self = Thread.currentThread();
    check(local.get() == null, "a thread-local of an earlier execution: " + local.get());
    check(inherited.get() == null, "an inheritable thread-local of an earlier execution");
    check(self.getUncaughtExceptionHandler() == self.getThreadGroup(), "a handler of its own");
    check(!self.isInterrupted(), "interrupted");
    check(self.getName().equals("main"), "named " + self.getName());
    check(self.getPriority() == Thread.NORM_PRIORITY, "priority " + self.getPriority());
    check(self.getContextClassLoader() == FreshThreadZero.class.getClassLoader(),
        "context loader " + self.getContextClassLoader());
    check(!self.isDaemon(), "a daemon");
    local.set("left by execution " + n);
    inherited.set("left by execution " + n);
    self.setUncaughtExceptionHandler((t, e) -> System.out.println("handled " + e.getMessage()));
    self.setName("renamed " + n);
    self.setPriority(Thread.MIN_PRIORITY);
    self.setContextClassLoader(null);
    System.out.println("fresh " + n + " on thread " + System.identityHashCode(self));
    if (n % 3 == 1) {  // a finding elsewhere ends the execution while main waits
      final Object never = new Object();
      new Thread(
              () -> {
                throw new IllegalStateException("planned elsewhere " + n);
              })
          .start();
      synchronized (never) {
        while (true) never.wait();
      }
    }
    Thread joiner =
        new Thread(
            () -> {
              try {
                self.join();
              } catch (InterruptedException e) {
                throw new AssertionError(e);
              }
              check(!self.isAlive(), "main alive after join");
              System.out.println("joined main");
            });
    joiner.start();
    self.interrupt();
    if (n % 3 == 2) {
      self.setUncaughtExceptionHandler(null);
      throw new IllegalStateException("planned " + n);
    }
  }

  static void check(boolean ok, String what) {
    if (!ok) throw new AssertionError("thread 0 is not new: " + what);
  }
}
