import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

// A bug of commons-pool2 2.11.1's GenericObjectPool that jsched found in bench/heavy/Pool2Evict
// (1 of 200 portfolio executions, "conn 4 destroyed twice" at close()): the evictor has started
// its eviction test on an idle object (state EVICTION, still in the idle queue); clear(), which
// close() calls, polls it from the idle queue and destroys it; the evictor then evicts it and
// destroys it again. Forced here on a plain JVM by the pooled object's own hook. Prints
// "destroyObject calls: 2, created: 1, destroyed count: 2" with Debian's 2.11.1:
//   javac -d /tmp/r -cp /usr/share/java/commons-pool2.jar Pool2ClearDuringEviction.java
//   java -cp /usr/share/java/commons-pool2.jar:/tmp/r Pool2ClearDuringEviction
public class Pool2ClearDuringEviction {
  static final CountDownLatch evictorHasIt = new CountDownLatch(1);
  static final CountDownLatch clearDestroyedIt = new CountDownLatch(1);
  static final AtomicInteger destroyCalls = new AtomicInteger();
  static volatile Thread clearer;

  static final class Hooked extends DefaultPooledObject<Object> {
    Hooked(Object o) { super(o); }
    @Override public boolean startEvictionTest() {
      boolean started = super.startEvictionTest();
      if (started && Thread.currentThread() != clearer) {
        evictorHasIt.countDown();
        await(clearDestroyedIt);
      }
      return started;
    }
  }
  static void await(CountDownLatch l) {
    try { if (!l.await(5, TimeUnit.SECONDS)) System.out.println("(timed out waiting)"); }
    catch (InterruptedException e) { throw new IllegalStateException(e); }
  }

  public static void main(String[] args) throws Exception {
    GenericObjectPoolConfig<Object> config = new GenericObjectPoolConfig<>();
    config.setMinEvictableIdleTime(Duration.ofMillis(1));
    config.setTimeBetweenEvictionRuns(Duration.ofMillis(50));
    config.setEvictorShutdownTimeout(Duration.ofMillis(100));
    GenericObjectPool<Object> pool = new GenericObjectPool<>(new BasePooledObjectFactory<Object>() {
      @Override public Object create() { return new Object(); }
      @Override public PooledObject<Object> wrap(Object o) { return new Hooked(o); }
      @Override public void destroyObject(PooledObject<Object> p) {
        destroyCalls.incrementAndGet();
        if (Thread.currentThread() == clearer) clearDestroyedIt.countDown();
      }
    }, config);
    pool.addObject();
    clearer = Thread.currentThread();
    await(evictorHasIt);
    pool.clear();
    Thread.sleep(300);
    pool.close();
    System.out.println("destroyObject calls: " + destroyCalls.get() + ", created: " + pool.getCreatedCount()
        + ", destroyed count: " + pool.getDestroyedCount());
  }
}
