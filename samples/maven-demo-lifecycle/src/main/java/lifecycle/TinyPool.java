package lifecycle;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A small object pool in the style of Apache Commons Pool: a fixed number of objects, borrowers
 * that wait up to maxWait in arrival order, an evictor on the shared EvictionTimer that destroys
 * objects idle longer than minIdle, and idle times measured with a Clock kept in a field.
 */
public class TinyPool {
  /** An object of the pool. */
  public static final class Item {
    final int id;
    volatile Instant lastReturn;

    Item(int id, Instant now) {
      this.id = id;
      this.lastReturn = now;
    }

    public int id() {
      return id;
    }
  }

  private final Clock clock = Clock.systemUTC();
  private final ReentrantLock lock = new ReentrantLock(true);
  private final Condition available = lock.newCondition();
  private final ArrayDeque<Item> idle = new ArrayDeque<>();
  private final Map<Item, Boolean> borrowed = new IdentityHashMap<>();
  private final int capacity;
  private final AtomicInteger destroyed = new AtomicInteger();
  private int created;
  private ScheduledFuture<?> evictor;
  private boolean closed;

  public TinyPool(int capacity) {
    this.capacity = capacity;
  }

  /** Starts the evictor: every period, objects idle for at least minIdle are destroyed. */
  public void startEvictor(Duration period, Duration minIdle) {
    evictor = EvictionTimer.schedule(() -> evict(minIdle), period.toMillis());
  }

  /** An idle object, a new one while below capacity, or waits up to maxWait for one. */
  public Item borrow(Duration maxWait) throws InterruptedException {
    long nanos = maxWait.toNanos();
    lock.lock();
    try {
      while (true) {
        if (closed) throw new IllegalStateException("pool closed");
        Item it = idle.pollFirst();
        if (it == null && created < capacity) it = new Item(created++, clock.instant());
        if (it != null) {
          borrowed.put(it, true);
          return it;
        }
        if (nanos <= 0) throw new NoSuchElementException("timeout waiting for an idle object");
        nanos = available.awaitNanos(nanos);
      }
    } finally {
      lock.unlock();
    }
  }

  public void giveBack(Item it) {
    lock.lock();
    try {
      if (borrowed.remove(it) == null) throw new IllegalStateException("not borrowed: " + it.id);
      it.lastReturn = clock.instant();
      idle.addLast(it);
      available.signal();
    } finally {
      lock.unlock();
    }
  }

  /** How long the object has been idle, by the pool's clock. */
  public Duration idleTime(Item it) {
    Instant last = it.lastReturn;
    return Duration.between(last, clock.instant());
  }

  void evict(Duration minIdle) {
    lock.lock();
    try {
      for (Item it = idle.peekFirst(); it != null && idleTime(it).compareTo(minIdle) >= 0;
          it = idle.peekFirst()) {
        idle.pollFirst();
        created--;
        destroyed.incrementAndGet();
      }
    } finally {
      lock.unlock();
    }
  }

  public int destroyed() {
    return destroyed.get();
  }

  public int idleCount() {
    lock.lock();
    try {
      return idle.size();
    } finally {
      lock.unlock();
    }
  }

  public void close() {
    lock.lock();
    try {
      closed = true;
      available.signalAll();
    } finally {
      lock.unlock();
    }
    if (evictor != null) {
      EvictionTimer.cancel(evictor);
      evictor = null;
    }
  }
}
