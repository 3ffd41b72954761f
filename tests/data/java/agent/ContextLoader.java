// Code that loads the program's classes through the thread's context class loader (Clojure's
// runtime, service loaders, dom4j's factories) must get the execution's copies: under in-JVM
// iterations the launcher's copy is another class, whose statics the execution does not reset.
public class ContextLoader {
  static final class Counter {
    static int count;
  }

  public static void main(String[] args) throws Exception {
    Class<?> c = Class.forName(ContextLoader.class.getName() + "$Counter", true,
        Thread.currentThread().getContextClassLoader());
    if (c != Counter.class) throw new AssertionError("the context loader gave another copy");
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
