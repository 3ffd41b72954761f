/*
 * The hooks that code rewritten by jsched calls.
 *
 * Where this class lives: in the default mode (application classes instrumented) the agent
 * defines it as java.lang.JSchedShim when the VM starts, so that code in every class loader and
 * module can call it. When JDK classes are instrumented too, code in java.base runs long before
 * that, so the agent copies these fields and methods into java.lang.Thread as it loads and the
 * rewriter targets Thread instead. The rewriter reads hook names and descriptors from this
 * class (a unit test checks its table against it).
 *
 * Until the agent has linked the natives (in libjsched.so, jvmti-agent/hooks/shim_natives.cpp) and
 * set `jschedReady`, every hook performs the plain operation: the JVM looks native methods
 * up through Java code that may itself be instrumented. A native returns false when the calling thread is
 * not under jsched's control, and the hook then performs the plain operation too.
 *
 * `site` identifies the instrumented instruction (class, method, bytecode index) in the agent's
 * site registry.
 */
package java.lang;

import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;
import jdk.internal.vm.annotation.Stable;

public final class JSchedShim implements Thread.UncaughtExceptionHandler {
  private JSchedShim() {}

  /**
   * The handler of a thread whose execution is over (several executions in one JVM): it ends
   * with the ThreadDeath jsched throws at it, or with whatever its finally blocks throw then
   * (java.util.concurrent's unlock of a lock its await did not take back, say), none of which is
   * the program's to report.
   */
  @Override
  public void uncaughtException(Thread t, Throwable e) {}

  /**
   * Set by the agent once every native below is linked, and never cleared: @Stable lets the JIT
   * fold it to a constant in code compiled after it is set (every hook tests it).
   */
  @Stable private static boolean jschedReady;

  /** Before `monitorenter` and on entry of a (de-synchronized) synchronized method. */
  public static void monitorEnter(Object lock, int site) {
    if (jschedReady) jschedEnter(lock, site);
  }

  /** After `monitorexit` and on every exit of a (de-synchronized) synchronized method. */
  public static void monitorExit(Object lock, int site) {
    if (jschedReady) jschedExit(lock, site);
  }

  /** Replace Object.wait(), wait(long), wait(long, int). */
  public static void objectWait(Object o, int site) throws InterruptedException {
    if (!jschedReady || !jschedWait(o, 0, 0, false, site)) o.wait();
  }

  public static void objectWaitTimed(Object o, long millis, int site) throws InterruptedException {
    // wait(0) waits for ever: it is not a timed wait.
    if (!jschedReady || millis < 0 || !jschedWait(o, millis, 0, millis > 0, site)) o.wait(millis);
  }

  public static void objectWaitNanos(Object o, long millis, int nanos, int site)
      throws InterruptedException {
    if (!jschedReady || millis < 0 || nanos < 0 || nanos > 999999
        || !jschedWait(o, millis, nanos, millis > 0 || nanos > 0, site)) {
      o.wait(millis, nanos);
    }
  }

  /** Replace Object.notify() and notifyAll(). */
  public static void objectNotify(Object o, int site) {
    if (!jschedReady || !jschedNotify(o, false, site)) o.notify();
  }

  public static void objectNotifyAll(Object o, int site) {
    if (!jschedReady || !jschedNotify(o, true, site)) o.notifyAll();
  }

  /** Replace Thread.start(): registers the new thread as controlled, then starts it. */
  public static void threadStart(Thread t, int site) {
    if (!jschedReady || !jschedStart(t, site)) t.start();
  }

  /**
   * Replace JavaLangAccess.start(thread, container): from JDK 21 on, executors, fork-join pools
   * and thread containers start their threads so, not with Thread.start(). Typed Object: this
   * class is compiled against JDK 17, which has neither the method nor ThreadContainer. The
   * native starts the thread in every case (registered first when the caller is controlled).
   */
  public static void threadStartIn(Object access, Thread t, Object container, int site) {
    if (jschedReady) {
      jschedStartIn(access, t, container, site);
      return;
    }
    try {  // before the natives are linked: start it plainly
      Class<?> c = Class.forName("jdk.internal.vm.ThreadContainer");
      Class.forName("jdk.internal.access.JavaLangAccess")
          .getMethod("start", Thread.class, c)
          .invoke(access, t, container);
    } catch (java.lang.reflect.InvocationTargetException e) {
      JSchedShim.<RuntimeException>sneaky(e.getCause());
    } catch (ReflectiveOperationException e) {
      throw new InternalError(e);
    }
  }

  /**
   * Replace Thread.Builder.start(task) (JDK 21+): the builder's unstarted thread, started as
   * Thread.start() is. Typed Object: Thread.Builder is not in JDK 17.
   */
  public static Thread threadBuilderStart(Object builder, Runnable task, int site) {
    if (jschedReady) return jschedBuilderStart(builder, task, site);
    return (Thread) plainly("java.lang.Thread$Builder", "start", builder, task);
  }

  /** Replace Thread.startVirtualThread(task) (JDK 21+), as Thread.ofVirtual().start(task). */
  public static Thread threadStartVirtual(Runnable task, int site) {
    if (jschedReady) return jschedBuilderStart(null, task, site);
    return (Thread) plainly("java.lang.Thread", "startVirtualThread", null, task);
  }

  /**
   * In LockSupport, JDK 21+: a virtual thread parks (JavaLangAccess.parkVirtualThread) or is
   * unparked. The natives park in the model, or do the plain call when the thread is not
   * controlled.
   */
  public static void virtualPark(Object access, int site) {
    if (jschedReady) jschedVirtualPark(access, 0L, false, site);
    else plainly("jdk.internal.access.JavaLangAccess", "parkVirtualThread", access);
  }

  public static void virtualParkNanos(Object access, long nanos, int site) {
    if (jschedReady) jschedVirtualPark(access, nanos, true, site);
    else plainly("jdk.internal.access.JavaLangAccess", "parkVirtualThread", access, nanos);
  }

  public static void virtualUnpark(Object access, Thread t, int site) {
    if (jschedReady) jschedVirtualUnpark(access, t, site);
    else plainly("jdk.internal.access.JavaLangAccess", "unparkVirtualThread", access, t);
  }

  /**
   * Before the natives are linked: `owner`'s method `name` called on `receiver` (null: static)
   * with `args`, whose types are the method's (Runnable, long, Thread).
   */
  private static Object plainly(String owner, String name, Object receiver, Object... args) {
    Class<?>[] types = new Class<?>[args.length];
    for (int i = 0; i < args.length; i++) {
      types[i] = args[i] instanceof Long ? long.class
          : args[i] instanceof Thread ? Thread.class : Runnable.class;
    }
    try {
      java.lang.reflect.Method m = Class.forName(owner).getMethod(name, types);
      m.setAccessible(true);
      return m.invoke(receiver, args);
    } catch (java.lang.reflect.InvocationTargetException e) {
      JSchedShim.<RuntimeException>sneaky(e.getCause());
      return null;
    } catch (ReflectiveOperationException e) {
      throw new InternalError(e);
    }
  }

  @SuppressWarnings("unchecked")
  private static <T extends Throwable> void sneaky(Throwable t) throws T {
    throw (T) t;
  }

  /**
   * Replace System.gc() and Runtime.gc(): a full collection takes milliseconds on a real JVM,
   * and the program's other threads run meanwhile (docs/agent.md, "Time").
   */
  public static void systemGc(int site) {
    if (jschedReady) jschedGc(site);
    System.gc();
  }

  public static void runtimeGc(Runtime r, int site) {
    if (jschedReady) jschedGc(site);
    r.gc();
  }

  /** Replace Thread.join(), join(long), join(long, int). */
  public static void threadJoin(Thread t, int site) throws InterruptedException {
    if (!jschedReady || !jschedJoin(t, 0, false, site)) t.join();
  }

  public static void threadJoinTimed(Thread t, long millis, int site) throws InterruptedException {
    // join(0) waits for ever: it is not a timed join.
    if (!jschedReady || millis < 0 || !jschedJoin(t, millis, millis > 0, site)) t.join(millis);
  }

  public static void threadJoinNanos(Thread t, long millis, int nanos, int site)
      throws InterruptedException {
    if (!jschedReady || millis < 0 || nanos < 0 || nanos > 999999
        || !jschedJoin(t, millis + (nanos > 0 && millis < Long.MAX_VALUE ? 1 : 0), millis > 0 || nanos > 0, site)) {
      t.join(millis, nanos);
    }
  }

  /** Replace Thread.sleep(long), sleep(long, int), yield(). */
  public static void threadSleep(long millis, int site) throws InterruptedException {
    if (!jschedReady || millis < 0 || !jschedSleep(millis, site)) Thread.sleep(millis);
  }

  public static void threadSleepNanos(long millis, int nanos, int site) throws InterruptedException {
    if (!jschedReady || millis < 0 || nanos < 0 || nanos > 999999 || !jschedSleep(millis, site)) {
      Thread.sleep(millis, nanos);
    }
  }

  public static void threadYield(int site) {
    if (!jschedReady || !jschedYield(site)) Thread.yield();
  }

  /**
   * Replace Thread.isAlive(): a scheduling point (a loop that polls it lets the thread run), and
   * false once the model saw the thread end, the JVM's own thread finished too.
   */
  public static boolean threadIsAlive(Thread t, int site) {
    if (jschedReady) {
      int r = jschedIsAlive(t, site);
      if (r >= 0) return r == 1;
    }
    return t.isAlive();
  }

  /**
   * Replace Thread.getState(): a scheduling point (a loop that polls it lets the thread run),
   * and the state the model knows: the JVM sees a thread that waits in the model, or for its
   * turn, as RUNNABLE in jsched's native code.
   */
  public static Thread.State threadGetState(Thread t, int site) {
    if (jschedReady) {
      int r = jschedGetState(t, site);
      if (r >= 0) return Thread.State.values()[r];
    }
    return t.getState();
  }

  /** From JDK 20 on suspend(), resume() and stop() throw, and ThreadGroup prints a ThreadDeath. */
  private static final boolean JDK_20_ON = Runtime.version().feature() >= 20;

  /**
   * Replace Thread.suspend() and resume(): a controlled thread waits for its turn in the model
   * anyway, so suspending it is the model's: it takes no step until resumed. The JVM's suspend
   * would freeze a thread the model may already have handed the turn to.
   */
  @SuppressWarnings("removal")
  public static void threadSuspend(Thread t, int site) {
    if (!jschedReady || JDK_20_ON || !jschedSuspend(t, true, site)) t.suspend();
  }

  @SuppressWarnings("removal")
  public static void threadResume(Thread t, int site) {
    if (!jschedReady || JDK_20_ON || !jschedSuspend(t, false, site)) t.resume();
  }

  /**
   * Replace Thread.stop(). The JVM's stop throws ThreadDeath at a thread as it returns to Java,
   * and wakes it from wait, sleep, join and park as an interrupt does. A thread waiting in the
   * model returns to Java only when the model wakes it: so the model is told of an interrupt
   * too, after the JVM's stop (the woken thread then returns with ThreadDeath pending). A thread
   * that stops itself gets its ThreadDeath at once and never gets there.
   */
  @SuppressWarnings("removal")
  public static void threadStop(Thread t, int site) {
    t.stop();
    if (jschedReady && !JDK_20_ON) jschedInterrupt(t, site);
  }

  /** Replace Thread.interrupt(), isInterrupted() and the static Thread.interrupted(). */
  public static void threadInterrupt(Thread t, int site) {
    if (jschedReady) jschedInterrupt(t, site);
    t.interrupt();
  }

  public static boolean threadIsInterrupted(Thread t, int site) {
    if (jschedReady) {
      int r = jschedIsInterrupted(t, false, site);
      if (r >= 0) return r == 1;
    }
    return t.isInterrupted();
  }

  public static boolean threadInterrupted(int site) {
    if (jschedReady) {
      int r = jschedIsInterrupted(Thread.currentThread(), true, site);
      if (r >= 0) {
        Thread.interrupted();  // keep the JVM's flag in step with the scheduler's
        return r == 1;
      }
    }
    return Thread.interrupted();
  }

  /**
   * For bridges of static calls made through a subclass name (`Worker.sleep(5)` compiles to
   * invokestatic Worker.sleep): true when `owner` resolves that static method to Thread's.
   */
  public static boolean resolvesToThread(Class<?> owner, int site) {
    return jschedReady && jschedResolves(owner, site);
  }

  /** Before getfield/putfield (o is null when the object is still under construction). */
  public static void getField(Object o, int site) {
    if (jschedCounting) countObject(o, site);
    if (jschedReady) jschedAccess(o, -1, false, site);
  }

  public static void putField(Object o, int site) {
    if (jschedCounting) countObject(o, site);
    if (jschedReady) jschedAccess(o, -1, true, site);
  }

  /** Before getstatic/putstatic. */
  public static void getStatic(int site) {
    if (jschedCounting) JSchedVariables.countStatic(site);
    if (jschedReady) jschedAccess(null, -1, false, site);
  }

  public static void putStatic(int site) {
    if (jschedCounting) JSchedVariables.countStatic(site);
    if (jschedReady) jschedAccess(null, -1, true, site);
  }

  /** Before xaload / xastore. */
  public static void arrayLoad(Object array, int index, int site) {
    if (jschedCounting) countObject(array, site);
    if (jschedReady) jschedAccess(array, index, false, site);
  }

  public static void arrayStore(Object array, int index, int site) {
    if (jschedCounting) countObject(array, site);
    if (jschedReady) jschedAccess(array, index, true, site);
  }

  /** After an object (once its constructor returned) or an array is allocated. */
  public static void allocated(Object o, int site) {
    if (jschedCounting) JSchedVariables.put(o, site);
    if (jschedReady) jschedAllocated(o, site);
  }

  // Profile runs (the agent's profile=) count every access per variable, in Java
  // (JSchedVariables). The accesses that are no scheduling points call only these.

  /** Set by the agent in profile runs, with jschedReady (and never cleared, as jschedReady). */
  @Stable private static boolean jschedCounting;

  // Only profile runs emit these two, and no application code runs before the agent sets
  // jschedCounting: they need not test it.

  /** Before a field or array access to o that is no scheduling point. */
  public static void countObject(Object o, int site) {
    // The fast path here, not in JSchedVariables: interpreted code (most of a short program's)
    // pays for each call, and this hook runs at every plain access.
    if (site > 0
        && site < JSchedVariables.SITES
        && JSchedVariables.LAST[site] == o
        && o != null
        && JSchedVariables.LAST_THREAD[site] == Thread.currentThread()) {
      JSchedVariables.STATE[2 * site]++;
      return;
    }
    JSchedVariables.countMiss(o, site);
  }

  /** Before a static field access that is no scheduling point. */
  public static void countStatic(int site) {
    if (site > 0
        && site < JSchedVariables.SITES
        && JSchedVariables.LAST_THREAD[site] == Thread.currentThread()) {
      JSchedVariables.STATE[2 * site]++; // as JSchedVariables.countStatic, one call fewer
      return;
    }
    JSchedVariables.countStatic(site);
  }

  // PCTVB variable tracking. Only the accesses that may touch a tracked variable call these
  // hooks; they count the accesses here, in Java, so that an access costs a few instructions and
  // only a change point (or the switch after one) enters the scheduler. The agent fills the
  // arrays, one entry per tracked variable ("slot"), before main runs. Only one controlled thread
  // runs at a time, so plain fields suffice.

  /** Per slot: the class of its objects when no other allocation site makes that class. */
  private static Class<?>[] jschedType;

  /** Per slot: whether jschedType decides membership (else JSchedVariables' table does). */
  private static boolean[] jschedExclusive;

  /** Before an access to a tracked static field (or an object known to be tracked). */
  @ForceInline
  public static void trackedStatic(int slot, int site) {
    if (jschedReady
        && (++JSchedVariables.jschedCount[slot] == JSchedVariables.jschedNextPoint[slot]
            || JSchedVariables.jschedSwitch)) {
      jschedTracked(slot, site);
    }
  }

  /**
   * Before an access to o's fields or elements, where o may belong to one of the tracked
   * variables in the bit mask `slots` (0: any).
   */
  @ForceInline
  public static void trackedObject(Object o, int slots, int site) {
    if (!jschedReady || o == null) return;
    if (site > 0 && site < JSchedVariables.LAST.length && JSchedVariables.LAST[site] == o) {
      int lazy = JSchedVariables.LAZY[site] - 1;
      if (lazy >= 0) {
        if (slots == 0 || (slots & (1 << lazy)) != 0) {
          JSchedVariables.PENDING[site]++;
          if (JSchedVariables.jschedSwitch) jschedTracked(lazy, site);
        }
        return;
      }
    }
    int slot = JSchedVariables.cached(o, site);
    if (slot == -2) slot = jschedSlotMiss(o, slots, site);
    if (slot >= 0 && (slots == 0 || (slots & (1 << slot)) != 0)) trackedStatic(slot, site);
  }

  /**
   * The slot of o when instruction `site` has not seen it last. Out of line: inlined at every
   * tracked instruction, the table lookup made the program's hot methods too big for the JIT,
   * which then left hooks as calls.
   */
  @DontInline
  private static int jschedSlotMiss(Object o, int slots, int site) {
    return JSchedVariables.rememberTracked(o, site, jschedSlotOf(o, slots));
  }

  private static int jschedSlotOf(Object o, int slots) {
    for (int m = slots; m != 0; m &= m - 1) {
      int slot = Integer.numberOfTrailingZeros(m);
      if (jschedExclusive[slot] && o.getClass() == jschedType[slot]) return slot;
    }
    return JSchedVariables.variableOf(o);
  }

  /** After an object is allocated at a tracked allocation site. */
  public static void trackedAlloc(Object o, int slot, int site) {
    if (!jschedReady || o == null) return;
    if (jschedExclusive[slot]) {
      Class<?> c = o.getClass();
      if (jschedType[slot] != c) {
        jschedType[slot] = c;
        JSchedVariables.invalidate();
      }
      return;
    }
    JSchedVariables.put(o, slot);
  }

  /** Replaces Thread.onSpinWait() in application code: a point where another thread may run. */
  public static void threadOnSpinWait(int site) {
    if (!jschedReady || !jschedYield(site)) Thread.onSpinWait();
  }

  // java.util.concurrent. LockSupport's calls of Unsafe.park/unpark come here, so every
  // blocking j.u.c. primitive (AQS locks and conditions, latches, barriers, futures, queues)
  // blocks in the scheduler's model while running its own JDK code; calls from application
  // code to j.u.c. methods are scheduling points before the call.

  public static void unsafePark(jdk.internal.misc.Unsafe u, boolean absolute, long time, int site) {
    if (!jschedReady || !jschedPark(absolute, time, site)) u.park(absolute, time);
  }

  public static void unsafeUnpark(jdk.internal.misc.Unsafe u, Object thread, int site) {
    if (!jschedReady || !jschedUnpark(thread, site)) u.unpark(thread);
  }

  /** Before a j.u.c. call that may change `o` (the receiver). */
  public static void syncCall(Object o, int site) {
    if (jschedReady) jschedSync(o, true, site);
  }

  /** Before a j.u.c. call that only reads `o`. */
  public static void syncRead(Object o, int site) {
    if (jschedReady) jschedSync(o, false, site);
  }

  /**
   * Before a call by a j.u.c. method's name on a class of the program: a j.u.c. call when `o` is
   * of a program's subclass of a j.u.c. class (a lock that extends ReentrantLock). A class of the
   * program that only implements a j.u.c. interface (its own Lock) is not one: its own code
   * orders what it orders.
   */
  public static void syncCallIfConcurrent(Object o, int site) {
    if (!jschedReady || o == null) return;
    for (Class<?> c = o.getClass().getSuperclass(); c != null; c = c.getSuperclass()) {
      if (c.getName().startsWith("java.util.concurrent.")) {
        jschedSync(o, true, site);
        return;
      }
    }
  }

  /**
   * System.nanoTime() and currentTimeMillis() in JDK concurrency code: for controlled threads the
   * scheduler's clock, which moves when the scheduler lets a timed wait time out (so timeouts
   * are decisions of the schedule, not of the machine's speed).
   */
  public static long nanoTime(int site) {
    return jschedReady ? jschedClock(false, site) : System.nanoTime();
  }

  public static long currentTimeMillis(int site) {
    return jschedReady ? jschedClock(true, site) : System.currentTimeMillis();
  }

  /** Instant.now() and the system clocks' instant(), on the scheduler's clock. */
  public static java.time.Instant clockInstant(int site) {
    // Nanosecond precision, as the JDK's own on Linux: two instants a few steps apart differ
    // (commons-pool compares a last-use instant with now minus a timeout).
    if (!jschedReady) return java.time.Instant.now();
    long n = jschedEpochNanos(site);
    return java.time.Instant.ofEpochSecond(
        Math.floorDiv(n, 1_000_000_000L), Math.floorMod(n, 1_000_000_000L));
  }

  /**
   * A seed the JDK's generators are about to use (new Random(), ThreadLocalRandom, new
   * SplittableRandom()): in a controlled thread, one drawn from the execution's seed instead.
   */
  public static long randomSeed(long seed, int site) {
    return jschedReady ? jschedRandomSeed(seed, site) : seed;
  }

  /** Math.random() and StrictMath.random(): from the execution's seed in a controlled thread. */
  public static double mathRandom(int site) {
    if (!jschedReady || !jschedControlled(site)) return Math.random();
    return (jschedRandomSeed(0, site) >>> 11) * 0x1.0p-53;
  }

  /** UUID.randomUUID(): a version 4 UUID from the execution's seed in a controlled thread. */
  public static java.util.UUID randomUUID(int site) {
    if (!jschedReady || !jschedControlled(site)) return java.util.UUID.randomUUID();
    long msb = jschedRandomSeed(0, site), lsb = jschedRandomSeed(0, site);
    msb = (msb & ~0xf000L) | 0x4000L;
    lsb = (lsb & 0x3fffffffffffffffL) | 0x8000000000000000L;
    return new java.util.UUID(msb, lsb);
  }

  /** Collections.shuffle(list): with a generator from the execution's seed in a controlled thread. */
  public static void shuffle(java.util.List<?> list, int site) {
    if (!jschedReady || !jschedControlled(site)) {
      java.util.Collections.shuffle(list);
    } else {
      java.util.Collections.shuffle(list, new java.util.Random(jschedRandomSeed(0, site)));
    }
  }

  /**
   * Before NioSocketImpl's Net.poll (a blocking socket read, accept or connect): a controlled
   * thread waits in the scheduler until the descriptor is ready; returns the timeout for the real
   * poll (0 then: it does not block).
   */
  public static long ioPoll(java.io.FileDescriptor fd, int events, long millis, int site) {
    return jschedReady ? jschedIoWait(fd, -1, events, millis, site) : millis;
  }

  /** Before the epoll selector's EPoll.wait: the same for Selector.select. */
  public static int epollWait(int epfd, int timeout, int site) {
    return jschedReady ? (int) jschedIoWait(null, epfd, 1, timeout, site) : timeout;
  }

  /** A thread id ThreadLocalRandom mixes into its seeds: the thread's place in the execution. */
  public static long stableThreadId(long id, int site) {
    return jschedReady ? jschedThreadId(id, site) : id;
  }

  /**
   * hashCode() of application classes that do not declare one: a hash from the object's stable
   * name (so that HashSet orders repeat under one seed and schedule).
   */
  public static int identityHash(Object o) {
    return jschedReady ? jschedIdentityHash(o) : System.identityHashCode(o);
  }

  /**
   * First thing in Thread.dispatchUncaughtException (the agent adds the call there). Up to JDK
   * 19 the ThreadDeath of Thread.stop() ends its thread silently (ThreadGroup ignores it): a
   * thread a program stopped on purpose is no finding.
   */
  public static void uncaught(Throwable e) {
    if (jschedReady && !(!JDK_20_ON && e instanceof ThreadDeath)) jschedUncaught(e);
  }

  /**
   * First thing in Shutdown.halt(int) (the agent adds the call there): System.exit, Runtime.halt
   * and the JVM's own handlers of SIGTERM, SIGINT and SIGHUP all end the process through it.
   */
  public static void exiting(int status) {
    if (jschedReady) jschedExiting(status);
  }

  /**
   * iterations=N: the main method of the class the launcher loaded, rewritten, calls this
   * instead of its own body; the agent runs the program's main N times, each in a class loader
   * of its own, and ends the JVM.
   */
  public static void runIterations(String[] args, Class<?> main) {
    jschedIterate(args, main);
  }

  /**
   * JUnit 4's ParentRunner.runLeaf, rewritten, calls this instead of statement.evaluate(): the
   * agent evaluates the statement (the whole test: a new instance, @Before, the method, @After,
   * rules) as a controlled execution for each iteration asked, and throws an AssertionError
   * naming the seed if one of them finds a bug (rewriter/test_runner_entry.h).
   */
  public static void runJunit4Test(Object statement, Object description) throws Throwable {
    jschedRunJunit4(statement, description);
  }

  /**
   * JUnit 3's TestCase.runBare, rewritten, calls this: the agent runs a fresh instance's
   * set-up, test and tear-down (the original runBare, now jsched$runBare) as a controlled
   * execution for each iteration asked.
   */
  public static void runJunit3Test(Object test) throws Throwable {
    jschedRunJunit3(test);
  }

  /**
   * JUnit 5's TestMethodTestDescriptor.execute, rewritten, calls this: the agent runs the
   * test's prepare, execute and cleanUp as a controlled execution for each iteration asked.
   * Returns `context`, as execute would.
   */
  public static Object runJupiterTest(Object descriptor, Object context, Object dynamicTests,
      Object parent) {
    return jschedRunJupiter(descriptor, context, dynamicTests, parent);
  }

  /**
   * JUnit 5's @Timeout (same-thread mode) schedules the interrupt of the test's thread here
   * (rewriter/junit_timeout.h). In an execution it goes on an executor of the execution's own,
   * whose worker is a controlled thread and whose delay runs on the virtual clock; the
   * executor JUnit keeps for the run would wait in real time outside every execution. Shut
   * down at once: its worker ends when the interrupt has run or been cancelled.
   */
  public static java.util.concurrent.ScheduledFuture<?> scheduleTestTimeout(Object executor,
      Runnable interrupt, long delay, java.util.concurrent.TimeUnit unit) {
    if (!jschedReady || !jschedControlled(1)) {
      return ((java.util.concurrent.ScheduledExecutorService) executor)
          .schedule(interrupt, delay, unit);
    }
    java.util.concurrent.ScheduledThreadPoolExecutor own =
        new java.util.concurrent.ScheduledThreadPoolExecutor(1);
    own.setRemoveOnCancelPolicy(true);
    java.util.concurrent.ScheduledFuture<?> f = own.schedule(interrupt, delay, unit);
    own.shutdown();
    return f;
  }

  // Natives, named so that they cannot clash with Thread's own (in JDK mode they live there).
  // Those returning boolean return false when the calling thread is not controlled (the hook
  // then performs the plain operation); jschedIsInterrupted returns 0/1, or -1 for that.

  private static native void jschedEnter(Object lock, int site);

  private static native void jschedExit(Object lock, int site);

  private static native boolean jschedWait(Object o, long millis, int nanos, boolean timed, int site)
      throws InterruptedException;

  private static native boolean jschedNotify(Object o, boolean all, int site);

  private static native boolean jschedStart(Thread t, int site);

  /** Creates and starts a thread with `builder` (null: a virtual thread) and returns it. */
  private static native Thread jschedBuilderStart(Object builder, Runnable task, int site);

  private static native void jschedVirtualPark(Object access, long nanos, boolean timed, int site);

  private static native void jschedVirtualUnpark(Object access, Thread t, int site);

  private static native boolean jschedJoin(Thread t, long millis, boolean timed, int site)
      throws InterruptedException;

  private static native boolean jschedSleep(long millis, int site) throws InterruptedException;

  private static native boolean jschedYield(int site);

  private static native void jschedInterrupt(Thread t, int site);

  private static native int jschedIsInterrupted(Thread t, boolean clear, int site);

  /** 0/1, or -1 when `t` or the caller is not controlled. */
  private static native int jschedIsAlive(Thread t, int site);

  private static native int jschedGetState(Thread t, int site);

  private static native boolean jschedSuspend(Thread t, boolean suspend, int site);

  private static native boolean jschedResolves(Class<?> owner, int site);

  private static native void jschedAccess(Object o, int index, boolean write, int site);

  private static native void jschedAllocated(Object o, int site);

  private static native void jschedUncaught(Throwable e);

  private static native void jschedExiting(int status);

  /** The next value of the execution's generator in a controlled thread, else `seed`. */
  private static native long jschedRandomSeed(long seed, int site);

  private static native boolean jschedControlled(int site);

  private static native int jschedIdentityHash(Object o);

  private static native long jschedThreadId(long id, int site);

  /** The timeout to use after waiting in the scheduler (`millis` unchanged if it did not). */
  private static native long jschedIoWait(Object fdObject, int fd, int events, long millis, int site);

  private static native void jschedGc(int site);

  /** Starts `t` through `access` in every case. */
  private static native void jschedStartIn(Object access, Thread t, Object container, int site);

  /** Returns false when the thread is not controlled (the caller then parks for real). */
  private static native boolean jschedPark(boolean absolute, long time, int site);

  /** Returns false when `thread` is not controlled (the caller then unparks it for real). */
  private static native boolean jschedUnpark(Object thread, int site);

  private static native void jschedSync(Object o, boolean write, int site);

  private static native long jschedClock(boolean millis, int site);

  /** The scheduler's wall clock in nanoseconds since the epoch. */
  private static native long jschedEpochNanos(int site);

  /** A change point, or the switch after one (slot, site: the access). */
  private static native void jschedTracked(int slot, int site);

  private static native void jschedIterate(String[] args, Class<?> main);

  private static native void jschedRunJunit4(Object statement, Object description)
      throws Throwable;

  private static native void jschedRunJunit3(Object test) throws Throwable;

  private static native Object jschedRunJupiter(Object descriptor, Object context,
      Object dynamicTests, Object parent);
}
