/*
 * Static state that starts clean in every execution of one JVM without loading the program's
 * classes again (rewriter/static_reset.h). Each rewritten class carries the execution that last
 * initialized it (its jsched$gen stamp); a class used in a later execution runs its static
 * initializer again, at the instruction where the JVM would have run it the first time, under the
 * JVM's rules (JVMS 5.5): the superclass first; a thread that finds another initializing the
 * class waits for it; the initializing thread itself goes on; an initializer that throws leaves
 * the class unusable until the next execution.
 *
 * The first initialization in each class loader is the JVM's own (the rewritten <clinit>), so a
 * class that no earlier execution used is never touched here.
 *
 * Defined by the agent in the boot loader next to java.lang.JSchedShim.
 */
package java.lang;

import java.util.HashMap;

public final class JSchedStatics {
  /** The current execution, set by the agent before each (1, 2, ...). */
  public static int generation;

  /**
   * Guards the maps below; held only between the program's scheduling points. A thread that
   * initializes a class has an entry in `initializing`, which other threads wait on until it is
   * done (entry [0] null): each waiter wakes once, when the class it needs is ready.
   */
  private static final Object LOCK = new Object();

  private static final HashMap<Class<?>, Thread[]> initializing = new HashMap<>();
  private static final HashMap<Class<?>, Integer> failed = new HashMap<>();

  private JSchedStatics() {}

  /**
   * Before an access to a static field of `c` or an allocation of it, from another class (through
   * that class's jsched$touch$N, which notes a true answer for the rest of the execution).
   * Returns whether `c` is ready in this execution, or will be made so by the JVM at the
   * instruction that follows (its first initialization, which makes other threads wait as it
   * should); false while its initializer, run again, still runs in the calling thread.
   */
  public static boolean touch(Class<?> c) {
    int now = generation;
    if (stampOf(c, now) == now) return true;
    reinitialize(c);
    return stampOf(c, now) == now;
  }

  /** `c` carries an earlier execution's stamp (or may): run its initializer again. */
  public static void reinitialize(Class<?> c) {
    final int now = generation;
    final Thread me = Thread.currentThread();
    boolean interrupted = false;
    Thread[] mine = {me};
    for (; ; ) {
      Thread[] other;
      synchronized (LOCK) {
        if (stampOf(c, now) == now) return;
        Integer f = failed.get(c);
        if (f != null && f == now) {
          throw new NoClassDefFoundError("Could not initialize class " + c.getName());
        }
        other = initializing.get(c);
        if (other == null) {
          initializing.put(c, mine);
          break;
        }
        if (other[0] == me) return;  // its own initializer uses it again
      }
      interrupted |= awaitInitialization(other);
    }
    Throwable thrown = null;
    try {
      Class<?> sup = c.getSuperclass();
      if (sup != null) touch(sup);
      if (c.isEnum()) clearEnumCaches(c);
      runInitializer(c, now);
    } catch (Throwable t) {
      thrown = t;
    }
    synchronized (LOCK) {
      initializing.remove(c);
      if (thrown != null) failed.put(c, now);
    }
    synchronized (mine) {
      mine[0] = null;
      mine.notifyAll();
    }
    if (interrupted) me.interrupt();
    if (thrown == null) return;
    if (thrown instanceof Error) throw (Error) thrown;
    throw new ExceptionInInitializerError(thrown);
  }

  /**
   * Waits for another thread's initialization (`by[0]` until it is done); the agent recognizes
   * this frame as a wait for class initialization. Returns whether it was interrupted: the JVM's
   * own wait is not interruptible. An execution that ends while its threads wait here (two
   * initializers that need each other's class) interrupts them, and they end with it.
   */
  private static boolean awaitInitialization(Thread[] by) {
    boolean interrupted = false;
    synchronized (by) {
      while (by[0] != null) {
        try {
          by.wait();
        } catch (InterruptedException e) {
          endIfOver();
          interrupted = true;
        }
      }
    }
    return interrupted;
  }

  /** ThreadDeath pending when the calling thread's execution is over. */
  private static native void endIfOver();

  /**
   * The stamp of `c`; `now` when `c` has none (not rewritten, an interface) or the JVM has not
   * finished initializing it (it will, with the current stamp, at the instruction that follows).
   */
  private static native int stampOf(Class<?> c, int now);

  /** Runs c.jsched$clinit() and, if it returns, stamps `c` with `now`. */
  private static native void runInitializer(Class<?> c, int now);

  /** Class's caches of the enum constants (valueOf, EnumSet): the next use reads the new ones. */
  private static native void clearEnumCaches(Class<?> c);
}
