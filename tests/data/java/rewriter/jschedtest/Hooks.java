package jschedtest;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Stand-in for java.lang.JSchedShim in rewriter tests: same hook names and descriptors, plain
 * semantics, and a count of every call printed at exit ("hooks: name=count ...") so tests can
 * check both that behaviour is unchanged and that each hook fired as often as expected.
 */
public final class Hooks {
  private static final Map<String, AtomicLong> COUNTS = new ConcurrentHashMap<>();

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      StringBuilder sb = new StringBuilder("hooks:");
      new TreeMap<>(COUNTS).forEach((k, v) -> sb.append(' ').append(k).append('=').append(v));
      System.err.println(sb);
    }));
  }

  private static void count(String hook, int site) {
    if (site <= 0) throw new IllegalStateException(hook + " with site " + site);
    COUNTS.computeIfAbsent(hook, k -> new AtomicLong()).incrementAndGet();
  }

  public static void monitorEnter(Object lock, int site) { count("monitorEnter", site); }
  public static void monitorExit(Object lock, int site) { count("monitorExit", site); }

  public static void objectWait(Object o, int site) throws InterruptedException {
    count("objectWait", site);
    o.wait();
  }
  public static void objectWaitTimed(Object o, long ms, int site) throws InterruptedException {
    count("objectWaitTimed", site);
    o.wait(ms);
  }
  public static void objectWaitNanos(Object o, long ms, int ns, int site) throws InterruptedException {
    count("objectWaitNanos", site);
    o.wait(ms, ns);
  }
  public static void objectNotify(Object o, int site) { count("objectNotify", site); o.notify(); }
  public static void objectNotifyAll(Object o, int site) { count("objectNotifyAll", site); o.notifyAll(); }

  public static void threadStart(Thread t, int site) { count("threadStart", site); t.start(); }
  public static void threadJoin(Thread t, int site) throws InterruptedException {
    count("threadJoin", site);
    t.join();
  }
  public static void threadJoinTimed(Thread t, long ms, int site) throws InterruptedException {
    count("threadJoinTimed", site);
    t.join(ms);
  }
  public static void threadJoinNanos(Thread t, long ms, int ns, int site) throws InterruptedException {
    count("threadJoinNanos", site);
    t.join(ms, ns);
  }
  public static void threadSleep(long ms, int site) throws InterruptedException {
    count("threadSleep", site);
    Thread.sleep(ms);
  }
  public static void threadSleepNanos(long ms, int ns, int site) throws InterruptedException {
    count("threadSleepNanos", site);
    Thread.sleep(ms, ns);
  }
  public static void threadYield(int site) { count("threadYield", site); Thread.yield(); }
  public static void threadInterrupt(Thread t, int site) { count("threadInterrupt", site); t.interrupt(); }
  public static boolean threadIsInterrupted(Thread t, int site) {
    count("threadIsInterrupted", site);
    return t.isInterrupted();
  }
  public static boolean threadInterrupted(int site) {
    count("threadInterrupted", site);
    return Thread.interrupted();
  }
  public static boolean resolvesToThread(Class<?> owner, int site) {
    count("resolvesToThread", site);
    for (Class<?> c = owner; c != null && c != Thread.class; c = c.getSuperclass()) {
      for (java.lang.reflect.Method m : c.getDeclaredMethods()) {
        if (java.lang.reflect.Modifier.isStatic(m.getModifiers())
            && (m.getName().equals("sleep") || m.getName().equals("yield")
                || m.getName().equals("interrupted"))) {
          return false;
        }
      }
    }
    return Thread.class.isAssignableFrom(owner);
  }

  public static void getField(Object o, int site) { count("getField", site); }
  public static void putField(Object o, int site) { count("putField", site); }
  public static void getStatic(int site) { count("getStatic", site); }
  public static void putStatic(int site) { count("putStatic", site); }
  public static void arrayLoad(Object a, int index, int site) { count("arrayLoad", site); }
  public static void arrayStore(Object a, int index, int site) { count("arrayStore", site); }
  public static void allocated(Object o, int site) {
    if (o == null) throw new IllegalStateException("allocated(null)");
    count("allocated", site);
  }
}
