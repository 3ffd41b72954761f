// Log4jAsync: Apache log4j 1.2 (1.2.17, Debian's log4j-1.2.jar) logging through an
// AsyncAppender, a fixed program of the heavy set (bench/heavy_programs.sh).
//
// What it does: a logger with an AsyncAppender (a buffer of 8 events, blocking when full)
// whose dispatcher thread delivers to a counting appender of ours; 3 threads each log N events
// (default 1000), with an MDC entry naming the thread, then the AsyncAppender is closed (which
// drains the buffer and joins the dispatcher).
//
// What it checks: the counting appender got exactly 3N events, each thread's events arrived in
// the order it logged them, and each event carried its own thread's MDC value and thread name.
// Anything else throws an AssertionError from main: a bug in log4j's AsyncAppender (or a
// wrong verdict of the tool).
//
// Why it is realistic: AsyncAppender is how log4j 1.2 applications keep slow appenders off
// their request threads: producers hand events (with their MDC and NDC copied) to a bounded
// buffer under its monitor, wait when it is full, and one dispatcher thread drains it.
//
//   java -cp /usr/share/java/log4j-1.2.jar:OUT Log4jAsync [EVENTS_PER_THREAD]
import java.util.HashMap;
import java.util.Map;
import org.apache.log4j.AppenderSkeleton;
import org.apache.log4j.AsyncAppender;
import org.apache.log4j.Level;
import org.apache.log4j.Logger;
import org.apache.log4j.MDC;
import org.apache.log4j.spi.LoggingEvent;

public class Log4jAsync {
  static final int THREADS = 3;

  // Counts events and checks each thread's order; doAppend (AppenderSkeleton) is synchronized.
  static final class CountingAppender extends AppenderSkeleton {
    int count;
    final Map<String, Integer> lastSeq = new HashMap<>();
    String problem;

    @Override
    protected void append(LoggingEvent event) {
      count++;
      String[] words = event.getRenderedMessage().split(" ");  // "<thread> <seq>"
      String thread = words[0];
      int seq = Integer.parseInt(words[1]);
      Integer last = lastSeq.put(thread, seq);
      if (problem != null) return;
      if (seq != (last == null ? 0 : last + 1)) {
        problem = "event " + seq + " of " + thread + " arrived after " + last;
      } else if (!thread.equals(event.getMDC("worker"))) {
        problem = "event of " + thread + " has MDC worker=" + event.getMDC("worker");
      } else if (!thread.equals(event.getThreadName())) {
        problem = "event of " + thread + " has thread name " + event.getThreadName();
      }
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

  public static void main(String[] args) throws Exception {
    final int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    System.setProperty("log4j.defaultInitOverride", "true");
    CountingAppender counting = new CountingAppender();
    AsyncAppender async = new AsyncAppender();
    async.setBufferSize(8);
    async.setBlocking(true);
    async.addAppender(counting);
    final Logger logger = Logger.getLogger("bench.async");
    logger.setAdditivity(false);
    logger.setLevel(Level.INFO);
    logger.addAppender(async);
    Thread[] producers = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      producers[t] = new Thread(() -> {
        String me = Thread.currentThread().getName();
        MDC.put("worker", me);
        for (int i = 0; i < n; i++) {
          logger.info(me + " " + i);
        }
        MDC.remove("worker");
      }, "producer-" + t);
      producers[t].start();
    }
    for (Thread p : producers) p.join();
    async.close();
    synchronized (counting) {
      if (counting.problem != null) throw new AssertionError(counting.problem);
      if (counting.count != THREADS * n) {
        throw new AssertionError("appender got " + counting.count + " events, expected "
            + THREADS * n);
      }
    }
    System.out.println("Log4jAsync: " + counting.count + " events delivered in order");
  }
}
