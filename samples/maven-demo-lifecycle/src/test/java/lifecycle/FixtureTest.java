package lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingDeque;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Each execution is the whole test: a new instance, @BeforeEach, @TempDir, @AfterEach. */
class FixtureTest {
  private LinkedBlockingDeque<Integer> deque;
  private TinyPool pool;
  @TempDir Path dir;

  @BeforeEach
  void setUp() {
    deque = new LinkedBlockingDeque<>(2);
    pool = new TinyPool(1);
  }

  @AfterEach
  void tearDown() {
    pool.close();
  }

  private void putBoth() throws InterruptedException {
    Thread a = new Thread(() -> put(1));
    Thread b = new Thread(() -> put(2));
    a.start();
    b.start();
    a.join();
    b.join();
  }

  private void put(int x) {
    try {
      deque.putFirst(x);  // blocks for ever on a full deque: a fixture left from another execution
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void correctFixtureIsNewInEachExecution() throws Exception {
    assertNull(deque.peekFirst());
    Files.createFile(dir.resolve("result"));  // fails if the directory were another execution's
    putBoth();
    assertEquals(2, deque.size());
    pool.giveBack(pool.borrow(Duration.ZERO));  // a pool the last tear-down closed would throw
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2})
  void correctEachInvocationToo(int n) throws Exception {
    assertNull(deque.peekFirst());
    Files.createFile(dir.resolve("result" + n));
    putBoth();
    assertEquals(2, deque.size());
  }

  @RepeatedTest(2)
  void correctEachRepetitionToo() throws Exception {
    assertNull(deque.peekFirst());
    putBoth();
    assertEquals(2, deque.size());
  }

  /** Check-then-act on the fixture: both threads may see it empty. */
  @Test
  void buggyAddsOnceUnlessBothSeeItEmpty() throws Exception {
    Runnable addOnce = () -> {
      if (deque.isEmpty()) deque.offerFirst(1);
    };
    Thread a = new Thread(addOnce);
    Thread b = new Thread(addOnce);
    a.start();
    b.start();
    a.join();
    b.join();
    assertEquals(1, deque.size());
  }
}
