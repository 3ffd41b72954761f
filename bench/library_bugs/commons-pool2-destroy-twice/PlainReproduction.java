import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.pool2.BaseKeyedPooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericKeyedObjectPool;

// The interleaving jsched found (TestEvictorClearOldestDestroyOnce), forced on a plain JVM by the
// program's own pooled object, without jsched: the evictor has taken the object from its
// iterator; clearOldest() removes it from the idle objects and is about to invalidate it; the
// evictor's eviction test then still sees it IDLE, and both destroy it. Prints
// "destroyObject calls: 2, destroyed count: 2, idle: 0, created: 1" with Debian's 2.11.1:
//   javac -d /tmp/r -cp /usr/share/java/commons-pool2.jar PlainReproduction.java
//   java -cp /usr/share/java/commons-pool2.jar:/tmp/r PlainReproduction
public class PlainReproduction {
  static final CountDownLatch evictorHasIt = new CountDownLatch(1);
  static final CountDownLatch clearOldestRemovedIt = new CountDownLatch(1);
  static volatile Thread evictor;

  static final class Hooked extends DefaultPooledObject<Object> {
    Hooked(Object o) { super(o); }
    @Override public boolean startEvictionTest() {
      evictorHasIt.countDown();
      await(clearOldestRemovedIt);
      return super.startEvictionTest();
    }
    @Override public void invalidate() {
      if (Thread.currentThread() != evictor) {
        clearOldestRemovedIt.countDown();
        try { evictor.join(5000); } catch (InterruptedException e) { throw new IllegalStateException(e); }
      }
      super.invalidate();
    }
  }
  static void await(CountDownLatch l) {
    try { if (!l.await(5, TimeUnit.SECONDS)) throw new IllegalStateException("timeout"); }
    catch (InterruptedException e) { throw new IllegalStateException(e); }
  }

  public static void main(String[] args) throws Exception {
    AtomicInteger destroyed = new AtomicInteger();
    BaseKeyedPooledObjectFactory<String, Object> f = new BaseKeyedPooledObjectFactory<>() {
      public Object create(String k) { return new Object(); }
      public PooledObject<Object> wrap(Object o) { return new Hooked(o); }
      public void destroyObject(String k, PooledObject<Object> p) { destroyed.incrementAndGet(); }
    };
    try (GenericKeyedObjectPool<String, Object> pool = new GenericKeyedObjectPool<>(f)) {
      pool.setEvictionPolicy((c, u, n) -> true);
      pool.addObject("key");
      evictor = new Thread(() -> { try { pool.evict(); } catch (Exception e) { throw new IllegalStateException(e); } });
      evictor.start();
      await(evictorHasIt);
      pool.clearOldest();
      evictor.join();
      System.out.println("destroyObject calls: " + destroyed.get() + ", destroyed count: " + pool.getDestroyedCount()
          + ", idle: " + pool.getNumIdle() + ", created: " + pool.getCreatedCount());
    }
  }
}
