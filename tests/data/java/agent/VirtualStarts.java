import java.lang.reflect.Method;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

// Virtual threads (JDK 21+, reached through reflection: the tests compile for JDK 17) started
// three ways: an unstarted one's start() and a thread-per-task executor, which jsched sees, and
// Thread.startVirtualThread called by reflection, which it does not (it must say so, never "ok"
// as if it had checked that thread).
public class VirtualStarts {
  static int n;

  public static void main(String[] args) throws Exception {
    if (Runtime.version().feature() < 21) {
      System.out.println("no virtual threads before JDK 21");
      return;
    }
    Runnable r = () -> {
      for (int k = 0; k < 3; k++) {
        synchronized (VirtualStarts.class) {
          n++;
        }
      }
    };
    Thread[] ts = new Thread[4];
    switch (args[0]) {
      case "unstarted": {
        Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
        Method unstarted = Class.forName("java.lang.Thread$Builder")
                               .getMethod("unstarted", Runnable.class);
        for (int i = 0; i < ts.length; i++) {
          ts[i] = (Thread) unstarted.invoke(builder, r);
          ts[i].start();
        }
        break;
      }
      case "executor": {
        ExecutorService e =
            (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
                .invoke(null);
        for (int i = 0; i < ts.length; i++) e.submit(r);
        e.shutdown();
        e.awaitTermination(1, java.util.concurrent.TimeUnit.DAYS);
        break;
      }
      default: {
        Method start = Thread.class.getMethod("startVirtualThread", Runnable.class);
        for (int i = 0; i < ts.length; i++) ts[i] = (Thread) start.invoke(null, r);
      }
    }
    for (Thread t : ts) {
      if (t != null) t.join();
    }
    System.out.println("n=" + n);
  }
}
