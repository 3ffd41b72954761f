package lifecycle;

import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import junit.framework.TestCase;

/**
 * Executors a test class keeps in static fields, made once by the test runner (JUnit 3 builds
 * every test's instance before it runs any) and shared by its tests: on a plain JVM their workers
 * outlive each test, parked until the next one hands them work. Under jsched every execution of
 * every test uses them, so a worker parked at one execution's end must take the next execution's
 * tasks as one of its threads. The tests run in the order they are declared.
 */
public class FrameworkSharedExecutorTest extends TestCase {
  private static final ExecutorService executor = Executors.newFixedThreadPool(1);
  private static final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor();

  private static final Callable<String> SLOW =
      () -> {
        Thread.sleep(9_999);
        return "slow";
      };

  /** The worker sleeps in a task the test gave up on; cancelled, it goes back to its queue. */
  public void testCorrectTaskCancelledAfterItsTimeout() throws Exception {
    Future<String> f = executor.submit(SLOW);
    try {
      f.get(5, TimeUnit.MILLISECONDS);
      fail("no timeout");
    } catch (TimeoutException expected) {
    }
    f.cancel(true);
  }

  /** The next test's task runs on the same worker, and in time. */
  public void testCorrectNextTaskRunsInTime() throws Exception {
    assertEquals("quick", executor.submit(() -> "quick").get(10, TimeUnit.SECONDS));
  }

  /** A task still sleeping as the test ends, never cancelled: the worker is busy past the end. */
  public void testCorrectTaskLeftRunning() throws Exception {
    executor.submit(SLOW);
  }

  /** The worker comes back from that task (or from the end of its execution) for this one. */
  public void testCorrectTaskAfterOneLeftRunning() throws Exception {
    assertEquals("after", executor.submit(() -> "after").get(10, TimeUnit.SECONDS));
  }

  /** A scheduled task of the shared scheduler, and the common pool, both after earlier tests. */
  public void testCorrectScheduledAndCommonPoolTasks() throws Exception {
    assertEquals(
        "later", scheduler.schedule(() -> "later", 20, TimeUnit.MILLISECONDS).get(10, TimeUnit.SECONDS));
    assertEquals(
        "common", CompletableFuture.supplyAsync(() -> "common").get(10, TimeUnit.SECONDS));
  }

  /** The shared worker and the test thread add to one count without a lock: a lost update. */
  public void testBuggyCountWithTheSharedWorker() throws Exception {
    Twins.Counter c = new Twins.Counter();
    Future<?> f = executor.submit(() -> c.value++);
    c.value++;
    f.get(10, TimeUnit.SECONDS);
    assertEquals(2, c.value);
  }
}
