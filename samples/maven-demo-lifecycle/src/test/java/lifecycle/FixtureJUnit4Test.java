package lifecycle;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.time.Duration;
import org.junit.After;
import org.junit.Before;
import org.junit.Rule;
import org.junit.Test;
import org.junit.rules.TemporaryFolder;

/** JUnit 4: @Before, @After and rules around every execution. */
public class FixtureJUnit4Test {
  @Rule public TemporaryFolder folder = new TemporaryFolder();
  private TinyPool pool;
  private Counter counter;

  static final class Counter {
    volatile int value;
  }

  @Before
  public void setUp() {
    pool = new TinyPool(2);
    counter = new Counter();
  }

  @After
  public void tearDown() {
    pool.close();
  }

  @Test
  public void correctFixtureIsNewInEachExecution() throws Exception {
    assertTrue(folder.newFile("result").exists());  // fails if the folder were another execution's
    Runnable use = () -> {
      try {
        TinyPool.Item it = pool.borrow(Duration.ofSeconds(1));
        synchronized (counter) {
          counter.value++;
        }
        pool.giveBack(it);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    };
    Thread a = new Thread(use);
    Thread b = new Thread(use);
    a.start();
    b.start();
    a.join();
    b.join();
    assertEquals(2, counter.value);
  }

  /** A lost update on the fixture. */
  @Test
  public void buggyCountsWithoutTheLock() throws Exception {
    Runnable add = () -> counter.value++;
    Thread a = new Thread(add);
    Thread b = new Thread(add);
    a.start();
    b.start();
    a.join();
    b.join();
    assertEquals(2, counter.value);
  }
}
