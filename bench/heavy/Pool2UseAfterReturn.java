// Pool2UseAfterReturn: the buggy variant of Pool2Evict (Apache Commons Pool 2.11): a pooled
// object used after it was returned to the pool.
//
// What it does: the same pool as Pool2Evict (at most 2 objects, 3 threads, an evictor every
// 2 ms) of "sessions" that write to a shared, synchronized audit log. Each worker borrows a
// session and runs a request on it N times (default 40); every session use enters the session
// (a counter of the threads inside it must go from 0 to 1), appends to the audit log, and
// leaves it.
//
// The bug: the request returns the session to the pool in a finally block and only then
// "flushes" it (one more use), the classic use-after-return. Once returnObject has run the
// pool may hand the session to another worker, or the evictor may destroy it, while the first
// worker is still flushing: two threads inside the same session, or a destroyed session used.
// The session detects both and the run ends with an AssertionError from main. Nothing is wrong
// in commons-pool2; the application breaks the pool's contract.
//
// Why it is realistic: returning a connection or a buffer to its pool before the last write
// (a finally block in the wrong place, a callback that runs after the release) is a frequent
// real bug; it only shows when another thread borrows the object within a short window.
//
//   java -cp /usr/share/java/commons-pool2.jar:OUT Pool2UseAfterReturn [REQUESTS_PER_THREAD]
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

public class Pool2UseAfterReturn {
  static final int THREADS = 3;
  static final AtomicReference<Throwable> failure = new AtomicReference<>();
  static final List<String> audit = Collections.synchronizedList(new ArrayList<>());

  static final class Session {
    final int id;
    final AtomicInteger inside = new AtomicInteger();
    volatile boolean closed;

    Session(int id) {
      this.id = id;
    }

    void use(String what) {
      if (closed) {
        throw new AssertionError("session " + id + " used after it was destroyed (" + what + ")");
      }
      if (inside.incrementAndGet() != 1) {
        throw new AssertionError("session " + id + " used by two threads at once (" + what + " by "
            + Thread.currentThread().getName() + ")");
      }
      audit.add(Thread.currentThread().getName() + " " + what + " on session " + id);
      inside.decrementAndGet();
    }
  }

  static final class Factory extends BasePooledObjectFactory<Session> {
    final AtomicInteger created = new AtomicInteger();

    @Override
    public Session create() {
      return new Session(created.incrementAndGet());
    }

    @Override
    public PooledObject<Session> wrap(Session s) {
      return new DefaultPooledObject<>(s);
    }

    @Override
    public void destroyObject(PooledObject<Session> p) {
      p.getObject().closed = true;
    }

    @Override
    public boolean validateObject(PooledObject<Session> p) {
      return !p.getObject().closed;
    }
  }

  public static void main(String[] args) throws Exception {
    final int n = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    GenericObjectPoolConfig<Session> config = new GenericObjectPoolConfig<>();
    config.setMaxTotal(2);
    config.setMinIdle(1);
    config.setMaxWait(Duration.ofSeconds(30));
    config.setTestOnBorrow(true);
    config.setTestWhileIdle(true);
    config.setMinEvictableIdleTime(Duration.ofMillis(1));
    config.setTimeBetweenEvictionRuns(Duration.ofMillis(2));
    // commons-pool2 2.11's close() waits for the evictor's executor to terminate while holding the
    // eviction lock a running eviction waits for: the wait then lasts the whole shutdown timeout
    // (10 s by default, seen in most plain runs). A short timeout keeps close() quick.
    config.setEvictorShutdownTimeout(Duration.ofMillis(100));
    final GenericObjectPool<Session> pool = new GenericObjectPool<>(new Factory(), config);
    Thread[] workers = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      workers[t] = new Thread(() -> {
        try {
          for (int i = 0; i < n; i++) {
            Session s = pool.borrowObject();
            try {
              s.use("request " + i);
            } finally {
              pool.returnObject(s);
            }
            s.use("flush " + i);  // BUG: the session is no longer ours
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "worker-" + t);
      workers[t].start();
    }
    for (Thread w : workers) w.join();
    pool.close();
    if (failure.get() != null) throw new AssertionError(failure.get().getMessage(), failure.get());
    if (audit.size() != 2 * THREADS * n) {
      throw new AssertionError("audit has " + audit.size() + " entries");
    }
    System.out.println("Pool2UseAfterReturn: no overlap this time (" + audit.size()
        + " audited uses)");
  }
}
