package org.apache.commons.pool2.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.junit.jupiter.api.Test;

/**
 * POOL-263's scenario: one thread returns a borrowed object while another closes the pool. Once
 * both are done, the pool is closed and the object destroyed, whichever came first: an object
 * returned to a closed pool is destroyed by the return, one returned before by the close, and one
 * returned while the close runs by the return's second look (the fix).
 */
public class TestReturnObjectDuringClose {

    private static final class CountingFactory extends BasePooledObjectFactory<Object> {
        final AtomicInteger created = new AtomicInteger();
        final AtomicInteger destroyed = new AtomicInteger();

        @Override
        public Object create() {
            created.incrementAndGet();
            return new Object();
        }

        @Override
        public PooledObject<Object> wrap(final Object value) {
            return new DefaultPooledObject<>(value);
        }

        @Override
        public void destroyObject(final PooledObject<Object> p) {
            destroyed.incrementAndGet();
        }
    }

    @Test
    public void testAnObjectReturnedAsThePoolClosesIsDestroyed() throws Exception {
        final CountingFactory factory = new CountingFactory();
        final GenericObjectPool<Object> pool = new GenericObjectPool<>(factory);
        final Object borrowed = pool.borrowObject();
        final Thread returner = new Thread(() -> pool.returnObject(borrowed));
        returner.start();
        pool.close();
        returner.join();
        assertEquals(1, factory.created.get(), "objects created");
        assertEquals(0, pool.getNumIdle(), "idle objects left in the closed pool");
        assertEquals(1, factory.destroyed.get(), "destroyObject calls");
    }
}
