// Log4jAsyncRacy: the buggy variant of Log4jAsync (log4j 1.2.17): a custom appender's metrics
// counter shared by two appender instances without synchronization.
//
// What it does: two loggers, "app" and "audit", each with an AsyncAppender of its own (so two
// dispatcher threads), each delivering to its own instance of a metrics appender of ours; 3
// threads each log N events (default 100), alternating between the two loggers. The appender
// keeps per-level counts in a synchronized map and a running total of all events in a static
// field, which the application reads as "events logged".
//
// The bug: the appender's author relied on AppenderSkeleton.doAppend being synchronized, but
// that lock is per appender instance; the static total is shared by both instances and updated
// read-modify-write (read the total, record the level in the stats map, write total + 1) from
// both dispatcher threads. When one dispatcher reads the total while the other is between its
// read and its write, an increment is lost and the final total is short of 3N: an
// AssertionError from main. log4j is not at fault.
//
// Why it is realistic: statics in custom appenders (metrics, "last error" fields, counters) are
// common, and the synchronization AppenderSkeleton provides looks like it covers them; with two
// AsyncAppenders the appenders really are called from two threads at once.
//
//   java -cp /usr/share/java/log4j-1.2.jar:OUT Log4jAsyncRacy [EVENTS_PER_THREAD]
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.AsyncAppender;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.spi.LoggingEvent;

public class Log4jAsyncRacy {
  static final int THREADS = 3;

  static final class MetricsAppender extends AppenderSkeleton {
    static long total;  // BUG: shared by every instance, guarded by none
    static final Map<String, Integer> byLevel = Collections.synchronizedMap(new HashMap<>());

    @Override
    protected void append(LoggingEvent event) {
      long seen = total;
      byLevel.merge(getName() + "." + event.getLevel(), 1, Integer::sum);
      total = seen + 1;
    }

    @Override
    public boolean requiresLayout() {
      return false;
    }

    @Override
    public void close() {
      closed = true;
    }
  }

  static Logger logger(String name) {
    MetricsAppender metrics = new MetricsAppender();
    metrics.setName(name);
    AsyncAppender async = new AsyncAppender();
    async.setName(name + "-async");
    async.setBufferSize(16);
    async.setBlocking(true);
    async.addAppender(metrics);
    Logger logger = Logger.getLogger(name);
    logger.setAdditivity(false);
    logger.setLevel(Level.INFO);
    logger.addAppender(async);
    return logger;
  }

  public static void main(String[] args) throws Exception {
    final int n = args.length > 0 ? Integer.parseInt(args[0]) : 100;
    System.setProperty("log4j.defaultInitOverride", "true");
    final Logger app = logger("app");
    final Logger audit = logger("audit");
    Thread[] producers = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      producers[t] = new Thread(() -> {
        for (int i = 0; i < n; i++) {
          if (i % 2 == 0) {
            app.info("request " + i);
          } else {
            audit.warn("access " + i);
          }
        }
      }, "producer-" + t);
      producers[t].start();
    }
    for (Thread p : producers) p.join();
    ((AsyncAppender) app.getAppender("app-async")).close();
    ((AsyncAppender) audit.getAppender("audit-async")).close();
    if (MetricsAppender.total != THREADS * n) {
      throw new AssertionError("metrics counted " + MetricsAppender.total + " events, expected "
          + THREADS * n + " (" + MetricsAppender.byLevel + ")");
    }
    System.out.println("Log4jAsyncRacy: total right this time (" + MetricsAppender.total + ")");
  }
}
