package lifecycle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.util.function.IntSupplier;
import org.junit.jupiter.api.Test;

/**
 * Mockito (its mocks are classes it generates at run time, which jsched instruments as they
 * load): a mock called from two threads, its calls counted by Mockito and by the test.
 */
class FrameworkMockitoTest {
  interface Source {
    int next();
  }

  private static int sumFromTwoThreads(Source source, Twins.Counter sum, boolean locked)
      throws InterruptedException {
    // The mock is called between the read of the sum and its write: Mockito's own steps widen
    // the window of the lost update (a bare `+=` of the mock's value is a window of one step
    // among the thousands of the mock's call, which PCT hit in 1 of 130 executions at times).
    Runnable add =
        () -> {
          if (locked) {
            synchronized (sum) {
              sum.value += source.next();
            }
          } else {
            int before = sum.value;
            sum.value = before + source.next();
          }
        };
    Twins.inThreads(2, add);
    return sum.value;
  }

  @Test
  void correctMockCalledFromTwoThreads() throws Exception {
    Source source = mock(Source.class);
    when(source.next()).thenReturn(5);
    assertEquals(10, sumFromTwoThreads(source, new Twins.Counter(), true));
    verify(source, times(2)).next();
  }

  @Test
  void buggyMockCalledFromTwoThreads() throws Exception {
    Source source = mock(Source.class);
    when(source.next()).thenReturn(5);
    assertEquals(10, sumFromTwoThreads(source, new Twins.Counter(), false));
  }

  @Test
  void correctMockOfAJdkInterface() {
    IntSupplier s = mock(IntSupplier.class);
    when(s.getAsInt()).thenReturn(7);
    assertEquals(7, s.getAsInt());
  }
}
