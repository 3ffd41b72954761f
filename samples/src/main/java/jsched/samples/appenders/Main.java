/*
 * appenders: a logger's appender list removed while another thread logs through it, without a
 * lock (log4j 1.2's Category and AppenderAttachableImpl).
 *
 * Models: a logger holding its appenders in a plain field (an array, null when there are none,
 * as log4j's appenderList). A worker thread logs 3 events; callAppenders() checks the field for
 * null and then loops over it, reading the field again for the length and for every element.
 * Meanwhile main reconfigures logging, as log4j's configurators do: removeAllAppenders() closes
 * every appender and sets the field to null, then main builds a file appender and adds it.
 *
 * Bug: callAppenders() and removeAllAppenders() share the field without a lock (log4j holds the
 * Category's monitor in both; here neither does). When the scheduler switches threads after the
 * worker's null check, and main removes the appenders before the worker reads the field again,
 * the worker's next read finds null. Every step of the race is a plain field or array access:
 * the bug needs plain field accesses to be scheduling points (agent option accesses=all); with
 * the default accesses=volatile there is no scheduling point in either thread's loop.
 *
 * Shows as: NullPointerException (appenders.length or appenders[i] on a null array) in the
 * worker thread, or ArrayIndexOutOfBoundsException there when the field already holds the new,
 * shorter array (jsched exit status 3). An event that reaches a closed appender is dropped, as
 * log4j's AppenderSkeleton does; that is not a failure. Correct runs print
 * "worker logged 3 events, appenders now [file]". (The worker first does some local computation
 * without any synchronization, so in plain runs main has reconfigured before the worker logs.)
 */
package jsched.samples.appenders;

public class Main {
  static class Appender {
    final String name;
    boolean closed;
    int written;
    int dropped;

    Appender(String name) {
      this.name = name;
    }

    void doAppend(String event) {
      if (closed) {
        dropped++; // log4j: "Attempted to append to closed appender"
        return;
      }
      written += event.length();
    }

    void close() {
      closed = true;
    }
  }

  static class Logger {
    private Appender[] appenders; // BUG: shared without a lock; null when there are none

    void addAppender(Appender appender) {
      if (appenders == null) {
        appenders = new Appender[] {appender};
      } else {
        Appender[] grown = new Appender[appenders.length + 1];
        System.arraycopy(appenders, 0, grown, 0, appenders.length);
        grown[appenders.length] = appender;
        appenders = grown;
      }
    }

    void removeAllAppenders() {
      if (appenders != null) {
        for (int i = 0; i < appenders.length; i++) {
          appenders[i].close();
        }
        appenders = null;
      }
    }

    int callAppenders(String event) {
      int writes = 0;
      if (appenders != null) { // first read of the field
        for (int i = 0; i < appenders.length; i++) { // the field read again: null by now?
          appenders[i].doAppend(event);
          writes++;
        }
      }
      return writes;
    }

    String names() {
      StringBuilder sb = new StringBuilder("[");
      if (appenders != null) {
        for (int i = 0; i < appenders.length; i++) {
          sb.append(i > 0 ? ", " : "").append(appenders[i].name);
        }
      }
      return sb.append(']').toString();
    }
  }

  static class Worker extends Thread {
    private final Logger logger;
    private long setupChecksum;
    int logged;

    Worker(Logger logger) {
      super("worker");
      this.logger = logger;
    }

    @Override
    public void run() {
      setUp();
      for (int i = 1; i <= 3; i++) {
        logger.callAppenders("event " + i);
        logged++;
      }
    }

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps the worker behind main.
     */
    private void setUp() {
      long sum = 0;
      for (int i = 0; i < 200_000; i++) {
        sum = sum * 31 + i;
      }
      setupChecksum = sum;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Logger logger = new Logger();
    logger.addAppender(new Appender("console"));
    logger.addAppender(new Appender("audit"));
    Worker worker = new Worker(logger);
    worker.start();
    // Reconfigure: drop the old appenders, build the new one, add it.
    logger.removeAllAppenders();
    Appender file = new Appender("file");
    logger.addAppender(file);
    worker.join();
    System.out.println("worker logged " + worker.logged + " events, appenders now "
        + logger.names());
  }
}
