import java.util.concurrent.CountDownLatch;

/**
 * Two initializers that need each other's class, run from two threads, in every execution but
 * the first: a deadlock through class initialization each time, whatever the schedule (each
 * initializer waits until the other has started before it touches the other's class). The
 * first execution initializes both classes from main alone, so that the JVM's own
 * initialization is done and later executions run the initializers again (statics reset).
 * Prints "loader <identity of main's class loader>" at the start of every execution.
 */
public class InitCycle {
  static class Start {
    static final CountDownLatch BOTH = new CountDownLatch(2);
  }

  static boolean first;

  static void meet() {
    if (first) return;
    Start.BOTH.countDown();
    try {
      Start.BOTH.await();
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  static class Alpha {
    static final int PARTNER;

    static {
      meet();
      PARTNER = Beta.PARTNER + 1;
    }
  }

  static class Beta {
    static final int PARTNER;

    static {
      meet();
      PARTNER = Alpha.PARTNER + 1;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    final int execution = Integer.getInteger("initcycle.execution", 0);
    System.setProperty("initcycle.execution", Integer.toString(execution + 1));
    System.out.println("loader " + System.identityHashCode(InitCycle.class.getClassLoader()));
    first = execution == 0;
    if (first) {
      int unused = Alpha.PARTNER + Beta.PARTNER;
      return;
    }
    Thread a = new Thread(() -> System.out.println("alpha " + Alpha.PARTNER));
    Thread b = new Thread(() -> System.out.println("beta " + Beta.PARTNER));
    a.start();
    b.start();
    a.join();
    b.join();
  }
}
