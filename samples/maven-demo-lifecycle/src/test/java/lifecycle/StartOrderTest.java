package lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A short sleep lets a started thread reach its wait, as on a real JVM. */
class StartOrderTest {
  private static Thread waiter(TinyPool pool, int id, List<Integer> order) {
    return new Thread(() -> {
      try {
        TinyPool.Item it = pool.borrow(Duration.ofSeconds(10));
        order.add(id);
        pool.giveBack(it);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
  }

  private static List<Integer> serve(boolean sleepBetweenStarts) throws Exception {
    TinyPool pool = new TinyPool(1);
    TinyPool.Item held = pool.borrow(Duration.ZERO);
    List<Integer> order = Collections.synchronizedList(new ArrayList<>());
    Thread first = waiter(pool, 1, order);
    Thread second = waiter(pool, 2, order);
    first.start();
    if (sleepBetweenStarts) Thread.sleep(10);  // so that the first waiter queues first
    second.start();
    if (sleepBetweenStarts) Thread.sleep(10);
    pool.giveBack(held);
    first.join();
    second.join();
    pool.close();
    return order;
  }

  @Test
  void correctWaitersAreServedInArrivalOrder() throws Exception {
    assertEquals(List.of(1, 2), serve(true));
  }

  /** Assumes the thread started first queues first. */
  @Test
  void buggyAssumesStartOrderIsArrivalOrder() throws Exception {
    assertEquals(List.of(1, 2), serve(false));
  }
}
