import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

// Thread operations called through method references, which LambdaMetafactory compiles into
// hidden classes no agent sees: threads started by `forEach(Thread::start)` are controlled, an
// interrupt sent by `forEach(Thread::interrupt)` reaches a thread waiting in the model, and a
// `lock::notifyAll` wakes its waiters there.
public class MethodRefs {
  static final Object lock = new Object();
  static boolean ready;

  public static void main(String[] args) throws Exception {
    AtomicInteger ran = new AtomicInteger();
    List<Thread> workers = List.of(new Thread(ran::incrementAndGet), new Thread(ran::incrementAndGet));
    workers.forEach(Thread::start);
    for (Thread w : workers) w.join();

    boolean[] interrupted = {false};
    Thread sleeper = new Thread(() -> {
      synchronized (lock) {
        try {
          while (true) lock.wait();
        } catch (InterruptedException e) {
          interrupted[0] = true;
        }
      }
    });
    sleeper.start();
    Thread.sleep(10);
    List.of(sleeper).forEach(Thread::interrupt);
    sleeper.join();

    Thread waiter = new Thread(() -> {
      synchronized (lock) {
        while (!ready) {
          try {
            lock.wait();
          } catch (InterruptedException e) {
            throw new AssertionError(e);
          }
        }
      }
    });
    waiter.start();
    Thread.sleep(10);
    Runnable wake = lock::notifyAll;
    synchronized (lock) {
      ready = true;
      wake.run();
    }
    waiter.join();
    if (ran.get() != 2 || !interrupted[0]) throw new AssertionError(ran + " " + interrupted[0]);
    System.out.println("references ok");
  }
}
