import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

// Every kind of scheduling point in virtual threads (JDK 21+; compiled only with a JDK 21):
// "points" sleeps, waits with a timeout, parks with a timeout, interrupts a sleeper, and meets
// at a latch, a semaphore, a barrier, a VarHandle and a volatile field, all correct; "socket"
// has one virtual thread read what another writes through a real socket (a wait for I/O the
// model does not see: a hidden block, never a deadlock).
public class VtPoints {
  static volatile int flag;
  int cell;
  static final VarHandle CELL;

  static {
    try {
      CELL = MethodHandles.lookup().findVarHandle(VtPoints.class, "cell", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  public static void main(String[] args) throws Exception {
    if (args[0].equals("socket")) {
      socket();
    } else {
      points();
    }
  }

  static void points() throws Exception {
    Object monitor = new Object();
    CountDownLatch latch = new CountDownLatch(2);
    Semaphore permits = new Semaphore(1);
    CyclicBarrier barrier = new CyclicBarrier(2);
    AtomicInteger done = new AtomicInteger();
    VtPoints shared = new VtPoints();
    Thread sleeper = Thread.ofVirtual().start(() -> {
      try {
        Thread.sleep(60_000);
        throw new AssertionError("slept a minute without its interrupt");
      } catch (InterruptedException e) {
        done.incrementAndGet();
      }
    });
    Runnable worker = () -> {
      try {
        long t0 = System.nanoTime();
        Thread.sleep(50);
        if (System.nanoTime() - t0 < TimeUnit.MILLISECONDS.toNanos(50))
          throw new AssertionError("a 50 ms sleep took less");
        synchronized (monitor) {
          monitor.wait(20);
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        permits.acquire();
        try {
          CELL.getAndAdd(shared, 1);
          flag = flag + 0;
        } finally {
          permits.release();
        }
        barrier.await();
        latch.countDown();
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
    Thread a = Thread.ofVirtual().start(worker);
    Thread b = Thread.startVirtualThread(worker);
    latch.await();
    sleeper.interrupt();
    for (Thread t : new Thread[] {a, b, sleeper}) t.join();
    if ((int) CELL.get(shared) != 2 || done.get() != 1) throw new AssertionError("lost a step");
    System.out.println("points ok");
  }

  static void socket() throws Exception {
    try (ServerSocket server = new ServerSocket(0)) {
      Thread reader = Thread.ofVirtual().start(() -> {
        try (Socket s = server.accept()) {
          int b = s.getInputStream().read();
          s.getOutputStream().write(b + 1);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      Thread writer = Thread.ofVirtual().start(() -> {
        try (Socket s = new Socket("localhost", server.getLocalPort())) {
          s.getOutputStream().write(41);
          if (s.getInputStream().read() != 42) throw new AssertionError("wrong answer");
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      reader.join();
      writer.join();
    }
    System.out.println("socket ok");
  }
}
