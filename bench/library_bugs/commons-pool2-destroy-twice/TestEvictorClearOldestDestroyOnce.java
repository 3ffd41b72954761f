package org.apache.commons.pool2.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.pool2.BaseKeyedPooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.junit.jupiter.api.Test;

/**
 * The evictor and clearOldest() of a GenericKeyedObjectPool racing for its one idle object: it
 * must be destroyed once. POOL-326 fixed one way they both destroyed it (clearOldest() now leaves
 * an object under an eviction test alone); in 2.11.1 another remains: clearOldest() takes the
 * object out of the idle objects and, before it invalidates it, the evictor, which already had
 * it from its iterator, still finds it IDLE, tests it and destroys it too.
 */
public class TestEvictorClearOldestDestroyOnce {

    private static final class CountingFactory extends BaseKeyedPooledObjectFactory<String, Object> {
        final AtomicInteger destroyed = new AtomicInteger();

        @Override
        public Object create(final String key) {
            return new Object();
        }

        @Override
        public PooledObject<Object> wrap(final Object value) {
            return new DefaultPooledObject<>(value);
        }

        @Override
        public void destroyObject(final String key, final PooledObject<Object> p) {
            destroyed.incrementAndGet();
        }
    }

    @Test
    public void testAnIdleObjectIsDestroyedOnce() throws Exception {
        final CountingFactory factory = new CountingFactory();
        try (GenericKeyedObjectPool<String, Object> pool = new GenericKeyedObjectPool<>(factory)) {
            pool.setEvictionPolicy((config, underTest, idleCount) -> true);
            pool.addObject("key");
            final Thread evictor = new Thread(() -> {
                try {
                    pool.evict();
                } catch (final Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            evictor.start();
            pool.clearOldest();
            evictor.join();
            assertEquals(1, factory.destroyed.get(), "destroyObject calls");
            assertEquals(1, pool.getDestroyedCount(), "destroyed count");
            assertEquals(0, pool.getNumIdle(), "idle");
        }
    }
}
