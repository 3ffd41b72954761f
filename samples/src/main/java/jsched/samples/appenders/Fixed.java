/*
 * appenders (correct variant): the appender list is used and replaced under the logger's lock,
 * as log4j 1.2's Category does.
 *
 * Same program as Main, but addAppender(), removeAllAppenders(), callAppenders() and names() are
 * synchronized on the logger: the worker's null check and its loop see one value of the field.
 * An event logged between main's removal and its adding the file appender finds no appender and
 * goes nowhere (log4j warns "No appenders could be found"), which is not a failure.
 *
 * Expected jsched outcome: never fails (exit status 0); prints
 * "worker logged 3 events, appenders now [file]".
 */
package jsched.samples.appenders;

public class Fixed {
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
        dropped++;
        return;
      }
      written += event.length();
    }

    void close() {
      closed = true;
    }
  }

  static class Logger {
    private Appender[] appenders; // guarded by this; null when there are none

    synchronized void addAppender(Appender appender) {
      if (appenders == null) {
        appenders = new Appender[] {appender};
      } else {
        Appender[] grown = new Appender[appenders.length + 1];
        System.arraycopy(appenders, 0, grown, 0, appenders.length);
        grown[appenders.length] = appender;
        appenders = grown;
      }
    }

    synchronized void removeAllAppenders() {
      if (appenders != null) {
        for (int i = 0; i < appenders.length; i++) {
          appenders[i].close();
        }
        appenders = null;
      }
    }

    synchronized int callAppenders(String event) {
      int writes = 0;
      if (appenders != null) {
        for (int i = 0; i < appenders.length; i++) {
          appenders[i].doAppend(event);
          writes++;
        }
      }
      return writes;
    }

    synchronized String names() {
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

    /** Local preparation (a table checksum) without any synchronization. */
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
