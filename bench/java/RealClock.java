// Real time for the benchmarks' own timing. Under jsched, application code reads the
// execution's virtual clock (System.nanoTime moves only by timeouts and sleeps); the scripts
// leave this class uninstrumented (exclude=RealClock), so its reads are the JVM's.
public final class RealClock {
  private RealClock() {}

  public static long nanos() {
    return System.nanoTime();
  }
}
