/*
 * The hooks that code rewritten by jsched calls. Every method is a native implemented in
 * libjsched.so (jvmti-agent/shim_natives.cpp).
 *
 * Where this class lives: in the default mode (application classes instrumented) the agent
 * defines it as java.lang.JSchedShim when the VM starts, so that code in every class loader and
 * module can call it. When JDK classes are instrumented too, code in java.base cannot wait for
 * that, so the agent adds these same native methods to java.lang.Thread as it loads, and the
 * rewriter targets Thread instead. Names and descriptors must stay identical in both places;
 * the rewriter reads them from this class.
 *
 * `site` identifies the instrumented instruction (class, method, bytecode index) in the agent's
 * site registry. Hooks that replace a call (wait, notify, Thread methods) perform the original
 * operation themselves when the calling thread is not under jsched's control.
 */
package java.lang;

public final class JSchedShim {
  private JSchedShim() {}

  /** Before `monitorenter` and on entry of a (de-synchronized) synchronized method. */
  public static native void monitorEnter(Object lock, int site);

  /** After `monitorexit` and on every exit of a (de-synchronized) synchronized method. */
  public static native void monitorExit(Object lock, int site);

  /** Replace Object.wait(), wait(long), wait(long, int). */
  public static native void objectWait(Object o, int site) throws InterruptedException;

  public static native void objectWaitTimed(Object o, long millis, int site)
      throws InterruptedException;

  public static native void objectWaitNanos(Object o, long millis, int nanos, int site)
      throws InterruptedException;

  /** Replace Object.notify() and notifyAll(). */
  public static native void objectNotify(Object o, int site);

  public static native void objectNotifyAll(Object o, int site);

  /** Replace Thread.start(): registers the new thread as controlled, then starts it. */
  public static native void threadStart(Thread t, int site);

  /** Replace Thread.join(), join(long), join(long, int). */
  public static native void threadJoin(Thread t, int site) throws InterruptedException;

  public static native void threadJoinTimed(Thread t, long millis, int site)
      throws InterruptedException;

  public static native void threadJoinNanos(Thread t, long millis, int nanos, int site)
      throws InterruptedException;

  /** Replace Thread.sleep(long), sleep(long, int), yield(). */
  public static native void threadSleep(long millis, int site) throws InterruptedException;

  public static native void threadSleepNanos(long millis, int nanos, int site)
      throws InterruptedException;

  public static native void threadYield(int site);

  /** Replace Thread.interrupt(), isInterrupted() and the static Thread.interrupted(). */
  public static native void threadInterrupt(Thread t, int site);

  public static native boolean threadIsInterrupted(Thread t, int site);

  public static native boolean threadInterrupted(int site);

  /**
   * For bridges of static calls made through a subclass name (`Worker.sleep(5)` compiles to
   * invokestatic Worker.sleep): true when `owner` resolves that static method to Thread's.
   */
  public static native boolean resolvesToThread(Class<?> owner, int site);

  /** Before getfield/putfield (o is null when the object is still under construction). */
  public static native void getField(Object o, int site);

  public static native void putField(Object o, int site);

  /** Before getstatic/putstatic. */
  public static native void getStatic(int site);

  public static native void putStatic(int site);

  /** Before xaload / xastore. */
  public static native void arrayLoad(Object array, int index, int site);

  public static native void arrayStore(Object array, int index, int site);

  /** After an object (once its constructor returned) or an array is allocated. */
  public static native void allocated(Object o, int site);
}
