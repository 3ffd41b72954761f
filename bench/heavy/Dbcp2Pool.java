// Dbcp2Pool: an Apache Commons DBCP 2 (2.9, Debian's commons-dbcp2.jar, on commons-pool2 and
// commons-logging) BasicDataSource over an in-memory H2 database, a fixed program of the heavy
// set (bench/heavy_programs.sh).
//
// What it does: a data source of at most 2 pooled connections (initialSize 1, testOnBorrow,
// testWhileIdle with an evictor run every 20 ms, prepared-statement pooling on) and 3 threads
// that each run N small transactions (default 40): take a connection from the pool, insert an
// event row keyed by (thread, sequence number), increment a shared counter row, commit, read
// the counter back, and close (return) the connection.
//
// What it checks: each transaction sees the counter strictly greater than the last value the
// same thread saw; at the end there are exactly 3N event rows, the counter is 3N, the pool has
// no active connection left and borrowed as many as it got back. Anything else throws an
// AssertionError from main: a bug in DBCP, pool2 or H2 (or a wrong verdict of the tool).
//
// Why it is realistic: a servlet or batch application's database access path: a DBCP pool
// (PoolableConnectionFactory, GenericObjectPool, the evictor validating idle connections with
// Connection.isValid) in front of an embedded database, fewer connections than threads, row
// locks on a hot counter row.
//
//   java -cp /usr/share/java/commons-dbcp2.jar:/usr/share/java/commons-pool2.jar:\
//     /usr/share/java/commons-logging.jar:/usr/share/java/h2.jar:OUT Dbcp2Pool [TX_PER_THREAD]
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.commons.dbcp2.BasicDataSource;

public class Dbcp2Pool {
  static final int THREADS = 3;

  public static void main(String[] args) throws Exception {
    final int n = args.length > 0 ? Integer.parseInt(args[0]) : 40;
    final BasicDataSource ds = new BasicDataSource();
    ds.setDriverClassName("org.h2.Driver");
    ds.setUrl("jdbc:h2:mem:dbcp" + System.nanoTime() + ";DB_CLOSE_DELAY=-1");
    ds.setUsername("sa");
    ds.setPassword("");
    ds.setInitialSize(1);
    ds.setMaxTotal(2);
    ds.setMaxIdle(2);
    ds.setMaxWaitMillis(30000);
    ds.setTestOnBorrow(true);
    ds.setTestWhileIdle(true);
    ds.setTimeBetweenEvictionRunsMillis(20);
    ds.setPoolPreparedStatements(true);
    ds.setDefaultAutoCommit(false);
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE events(worker INT, seq INT, PRIMARY KEY(worker, seq))");
      s.execute("CREATE TABLE counter(id INT PRIMARY KEY, n INT NOT NULL)");
      s.execute("INSERT INTO counter VALUES(1, 0)");
      c.commit();
    }
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final AtomicInteger retries = new AtomicInteger();
    Thread[] workers = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      final int worker = t;
      workers[t] = new Thread(() -> {
        try {
          int last = 0;
          for (int i = 0; i < n; i++) {
            while (true) {
              try (Connection c = ds.getConnection()) {
                try {
                  int seen = transaction(c, worker, i);
                  if (seen <= last) throw new AssertionError(Thread.currentThread().getName()
                      + " read counter " + seen + " after " + last);
                  last = seen;
                  break;
                } catch (SQLException e) {
                  c.rollback();
                  // A lock timeout or deadlock on the counter row: retry, as applications do.
                  if (!"HYT00".equals(e.getSQLState()) && !"40001".equals(e.getSQLState())) throw e;
                  retries.incrementAndGet();
                }
              }
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "request-" + t);
      workers[t].start();
    }
    for (Thread w : workers) w.join();
    if (failure.get() != null) {
      throw new AssertionError("a request failed: " + failure.get(), failure.get());
    }
    int events;
    int counter;
    try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
      try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM events")) {
        r.next();
        events = r.getInt(1);
      }
      try (ResultSet r = s.executeQuery("SELECT n FROM counter WHERE id = 1")) {
        r.next();
        counter = r.getInt(1);
      }
      s.execute("SHUTDOWN");
    }
    int active = ds.getNumActive();
    ds.close();
    if (events != THREADS * n) {
      throw new AssertionError(events + " event rows, expected " + THREADS * n);
    }
    if (counter != THREADS * n) {
      throw new AssertionError("counter is " + counter + ", expected " + THREADS * n);
    }
    if (active != 0) throw new AssertionError(active + " connections still active");
    System.out.println("Dbcp2Pool: " + events + " transactions, " + retries.get() + " retried");
  }

  // One transaction; the counter's new value.
  static int transaction(Connection c, int worker, int seq) throws SQLException {
    try (PreparedStatement ins = c.prepareStatement("INSERT INTO events VALUES(?, ?)");
        PreparedStatement inc = c.prepareStatement("UPDATE counter SET n = n + 1 WHERE id = 1");
        PreparedStatement get = c.prepareStatement("SELECT n FROM counter WHERE id = 1")) {
      ins.setInt(1, worker);
      ins.setInt(2, seq);
      ins.executeUpdate();
      inc.executeUpdate();
      int n;
      try (ResultSet r = get.executeQuery()) {
        r.next();
        n = r.getInt(1);
      }
      c.commit();
      return n;
    }
  }
}
