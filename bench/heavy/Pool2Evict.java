// Pool2Evict: an Apache Commons Pool 2 (2.11, Debian's commons-pool2.jar) GenericObjectPool with
// its evictor running, a fixed program of the heavy set (bench/heavy_programs.sh).
//
// What it does: a pool of at most 2 "connections" (maxTotal 2, blocking when exhausted) with
// testOnBorrow, testWhileIdle, minIdle 1 and an evictor every 2 ms that evicts objects idle
// for more than 1 ms (so the evictor thread keeps destroying, validating and re-creating
// objects while the workers use the pool), and 3 threads that each borrow, use and return an
// object N times (default 400).
//
// What it checks: no object is ever handed to two threads at once (each object has an owner,
// set by compare-and-set on borrow and cleared before the return), no borrowed object has been
// destroyed or is being validated by the evictor, every borrow is matched by a return, and once
// the pool is closed every object it created has been destroyed exactly once. Any violation is
// an AssertionError from main: a bug in commons-pool2 (or a wrong verdict of the tool).
//
// Why it is realistic: this is the configuration of a database or HTTP client connection pool
// (commons-dbcp2, Jedis and many others build on GenericObjectPool): a few threads contending
// for fewer objects than threads, waiting in the pool's LinkedBlockingDeque, while the evictor
// (a ScheduledThreadPoolExecutor of commons-pool2's EvictionTimer) tests and evicts idle ones.
// close() also runs into a real stall of commons-pool2 2.11 (it waits, holding the eviction
// lock, for the evictor's executor to terminate, while a running eviction waits for that lock):
// a timed wait that must time out (evictorShutdownTimeout, here 100 ms) for the program to end.
// And close() can destroy an object twice when it comes while the evictor tests that object: a
// bug of commons-pool2 2.11.1 that jsched found here (1 execution in 200 under portfolio;
// reproductions/Pool2ClearDuringEviction.java forces it on a plain JVM). A finding "conn N
// destroyed twice" from close() is that bug, not a wrong verdict.
//
//   java -cp /usr/share/java/commons-pool2.jar:OUT Pool2Evict [BORROWS_PER_THREAD]
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

public class Pool2Evict {
  static final int THREADS = 3;
  static final AtomicReference<Throwable> failure = new AtomicReference<>();

  static void fail(String message) {
    AssertionError e = new AssertionError(message);
    failure.compareAndSet(null, e);
    throw e;
  }

  static final class Conn {
    final int id;
    final AtomicReference<Thread> owner = new AtomicReference<>();
    final AtomicInteger destroyed = new AtomicInteger();
    volatile boolean validating;
    int uses;  // only touched by the owner

    Conn(int id) {
      this.id = id;
    }
  }

  static final class Factory extends BasePooledObjectFactory<Conn> {
    final AtomicInteger created = new AtomicInteger();
    final AtomicInteger destroyed = new AtomicInteger();

    @Override
    public Conn create() {
      return new Conn(created.incrementAndGet());
    }

    @Override
    public PooledObject<Conn> wrap(Conn c) {
      return new DefaultPooledObject<>(c);
    }

    @Override
    public void destroyObject(PooledObject<Conn> p) {
      Conn c = p.getObject();
      if (c.owner.get() != null) {
        fail("conn " + c.id + " destroyed while " + c.owner.get().getName() + " holds it");
      }
      if (c.destroyed.incrementAndGet() != 1) fail("conn " + c.id + " destroyed twice");
      destroyed.incrementAndGet();
    }

    @Override
    public boolean validateObject(PooledObject<Conn> p) {
      Conn c = p.getObject();
      // Called on borrow (by the borrower, before it owns the object) and by the evictor.
      Thread o = c.owner.get();
      if (o != null && o != Thread.currentThread()) {
        fail("conn " + c.id + " validated while " + o.getName() + " holds it");
      }
      c.validating = true;
      boolean ok = c.destroyed.get() == 0;
      c.validating = false;
      return ok;
    }
  }

  public static void main(String[] args) throws Exception {
    final int n = args.length > 0 ? Integer.parseInt(args[0]) : 400;
    GenericObjectPoolConfig<Conn> config = new GenericObjectPoolConfig<>();
    config.setMaxTotal(2);
    config.setMaxIdle(2);
    config.setMinIdle(1);
    config.setBlockWhenExhausted(true);
    config.setMaxWait(Duration.ofSeconds(30));
    config.setTestOnBorrow(true);
    config.setTestWhileIdle(true);
    config.setNumTestsPerEvictionRun(2);
    config.setMinEvictableIdleTime(Duration.ofMillis(1));
    config.setTimeBetweenEvictionRuns(Duration.ofMillis(2));
    // commons-pool2 2.11's close() waits for the evictor's executor to terminate while holding the
    // eviction lock a running eviction waits for: the wait then lasts the whole shutdown timeout
    // (10 s by default, seen in most plain runs). A short timeout keeps close() quick.
    config.setEvictorShutdownTimeout(Duration.ofMillis(100));
    final Factory factory = new Factory();
    final GenericObjectPool<Conn> pool = new GenericObjectPool<>(factory, config);
    final AtomicInteger borrowed = new AtomicInteger();
    final AtomicInteger returned = new AtomicInteger();
    Thread[] workers = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      workers[t] = new Thread(() -> {
        Thread me = Thread.currentThread();
        try {
          for (int i = 0; i < n; i++) {
            Conn c = pool.borrowObject();
            borrowed.incrementAndGet();
            if (!c.owner.compareAndSet(null, me)) {
              fail("conn " + c.id + " handed to " + me.getName() + " while "
                  + c.owner.get().getName() + " holds it");
            }
            if (c.destroyed.get() != 0) fail("borrowed conn " + c.id + " was destroyed");
            if (c.validating) fail("borrowed conn " + c.id + " is being validated");
            c.uses++;  // the "work": safe only if the pool hands the object to one thread at a time
            if (i % 10 == 0) Thread.yield();
            if (c.owner.get() != me) {
              fail("conn " + c.id + " taken from " + me.getName() + " during use");
            }
            c.owner.set(null);
            pool.returnObject(c);
            returned.incrementAndGet();
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "worker-" + t);
      workers[t].start();
    }
    for (Thread w : workers) w.join();
    pool.close();
    if (failure.get() != null) {
      throw new AssertionError("a worker failed: " + failure.get(), failure.get());
    }
    if (borrowed.get() != THREADS * n || returned.get() != THREADS * n) {
      throw new AssertionError("borrowed " + borrowed.get() + ", returned " + returned.get()
          + ", expected " + THREADS * n);
    }
    if (pool.getNumActive() != 0) {
      throw new AssertionError(pool.getNumActive() + " objects still active");
    }
    if (factory.created.get() != factory.destroyed.get()) {
      throw new AssertionError("created " + factory.created.get() + " but destroyed "
          + factory.destroyed.get());
    }
    if (pool.getCreatedCount() != factory.created.get()
        || pool.getDestroyedCount() != factory.destroyed.get()) {
      throw new AssertionError("pool counts " + pool.getCreatedCount() + "/"
          + pool.getDestroyedCount() + " differ from the factory's " + factory.created.get() + "/"
          + factory.destroyed.get());
    }
    System.out.println("Pool2Evict: " + borrowed.get() + " borrows, " + factory.created.get()
        + " objects created and destroyed, " + pool.getDestroyedByEvictorCount()
        + " by the evictor");
  }
}
