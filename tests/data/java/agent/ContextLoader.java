// Code that loads the program's classes through the thread's context class loader (Clojure's
// runtime, service loaders, dom4j's factories) or the system class loader (jffi) must get the
// execution's copies, whose statics the execution resets.
public class ContextLoader {
  static final class Counter {
    static int count;
  }

  public static void main(String[] args) throws Exception {
    Class<?> c = Class.forName(ContextLoader.class.getName() + "$Counter", true,
        Thread.currentThread().getContextClassLoader());
    if (c != Counter.class) throw new AssertionError("the context loader gave another copy");
    // With statics reset the executions share the launcher's copy of the program: the system
    // class loader gives the execution's classes too (jffi finds its native code so).
    if (args.length > 0 && args[0].equals("system")
        && Class.forName(c.getName(), true, ClassLoader.getSystemClassLoader()) != Counter.class)
      throw new AssertionError("the system class loader gave another copy");
    Thread t = new Thread(() -> {
      if (Thread.currentThread().getContextClassLoader() != ContextLoader.class.getClassLoader())
        throw new AssertionError("a thread of the execution has another context loader");
      Counter.count++;
    });
    t.start();
    t.join();
    if (++Counter.count != 2) throw new AssertionError("count " + Counter.count);
    System.out.println("context ok");
  }
}
