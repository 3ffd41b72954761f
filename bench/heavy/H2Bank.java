// H2Bank: a bank on an embedded, in-memory H2 database (H2 2.1, Debian's h2.jar), the fixed
// program of the heavy set (bench/heavy_programs.sh).
//
// What it does: creates an accounts table (5 accounts of 1000) and a ledger table, then 3
// threads, each with a JDBC connection of its own, make N transfers each (default 60): every
// transfer is one transaction (autocommit off) that debits one account (only if it has the
// money: UPDATE ... WHERE balance >= ?), credits another and writes a ledger row, then commits.
// Rows are updated in account-id order, so two transfers never wait on each other's row locks
// in a cycle; a lock timeout or a deadlock H2 reports anyway (SQL states 40001, HYT00) is rolled
// back and retried, as an application must.
//
// What it checks: the money is conserved (the sum of the balances is 5 * 1000), no balance is
// negative, and the ledger has one row per committed transfer. Any other outcome throws an
// AssertionError from main: a real bug in H2 (or a wrong verdict of the tool running it).
//
// Why it is realistic: this is how applications use an embedded database from a few worker
// threads: a connection each, short transactions, the database's own MVCC and row locks (H2's
// MVStore transactions, its session locks and monitors) doing all the synchronization.
//
//   java -cp /usr/share/java/h2.jar:OUT H2Bank [TRANSFERS_PER_THREAD]
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

public class H2Bank {
  static final int ACCOUNTS = 5;
  static final int INITIAL = 1000;
  static final int THREADS = 3;

  public static void main(String[] args) throws Exception {
    final int n = args.length > 0 ? Integer.parseInt(args[0]) : 60;
    // A database of this run's own (in-memory databases are per JVM, by name).
    final String url = "jdbc:h2:mem:bank" + System.nanoTime() + ";DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection(url, "sa", "");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE accounts(id INT PRIMARY KEY, balance INT NOT NULL)");
      s.execute("CREATE TABLE ledger(id INT AUTO_INCREMENT PRIMARY KEY,"
          + " worker INT, src INT, dst INT, amount INT)");
      for (int i = 0; i < ACCOUNTS; i++) {
        s.execute("INSERT INTO accounts VALUES(" + i + ", " + INITIAL + ")");
      }
    }
    final AtomicInteger committed = new AtomicInteger();
    final AtomicInteger retries = new AtomicInteger();
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread[] workers = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      final int worker = t;
      workers[t] = new Thread(() -> {
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
          c.setAutoCommit(false);
          Random random = new Random(1000 + worker);
          for (int i = 0; i < n; i++) {
            int src = random.nextInt(ACCOUNTS);
            int dst = (src + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
            int amount = 1 + random.nextInt(50);
            while (true) {
              try {
                if (transfer(c, worker, src, dst, amount)) committed.incrementAndGet();
                break;
              } catch (SQLException e) {
                c.rollback();
                String state = e.getSQLState();
                if (!"40001".equals(state) && !"HYT00".equals(state)) throw e;
                retries.incrementAndGet();
              }
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "teller-" + t);
      workers[t].start();
    }
    for (Thread w : workers) w.join();
    if (failure.get() != null) throw new IllegalStateException("a teller failed", failure.get());
    try (Connection c = DriverManager.getConnection(url, "sa", "");
        Statement s = c.createStatement()) {
      int total = 0;
      try (ResultSet r = s.executeQuery("SELECT id, balance FROM accounts")) {
        while (r.next()) {
          if (r.getInt(2) < 0) {
            throw new AssertionError("account " + r.getInt(1) + " is negative: " + r.getInt(2));
          }
          total += r.getInt(2);
        }
      }
      int ledger;
      try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM ledger")) {
        r.next();
        ledger = r.getInt(1);
      }
      if (total != ACCOUNTS * INITIAL) {
        throw new AssertionError("money not conserved: total " + total + ", expected "
            + ACCOUNTS * INITIAL);
      }
      if (ledger != committed.get()) {
        throw new AssertionError("ledger has " + ledger + " rows for " + committed.get()
            + " committed transfers");
      }
      s.execute("SHUTDOWN");
    }
    System.out.println("H2Bank: " + committed.get() + " transfers committed, " + retries.get()
        + " retried, total conserved");
  }

  // One transfer in one transaction; false (rolled back) when src has too little money. The rows
  // are locked in id order.
  static boolean transfer(Connection c, int worker, int src, int dst, int amount)
      throws SQLException {
    try (PreparedStatement debit = c.prepareStatement(
            "UPDATE accounts SET balance = balance - ? WHERE id = ? AND balance >= ?");
        PreparedStatement credit = c.prepareStatement(
            "UPDATE accounts SET balance = balance + ? WHERE id = ?");
        PreparedStatement log = c.prepareStatement(
            "INSERT INTO ledger(worker, src, dst, amount) VALUES(?, ?, ?, ?)")) {
      debit.setInt(1, amount);
      debit.setInt(2, src);
      debit.setInt(3, amount);
      credit.setInt(1, amount);
      credit.setInt(2, dst);
      boolean ok;
      if (src < dst) {
        ok = debit.executeUpdate() == 1;
        if (ok) credit.executeUpdate();
      } else {
        credit.executeUpdate();
        ok = debit.executeUpdate() == 1;
      }
      if (!ok) {
        c.rollback();
        return false;
      }
      log.setInt(1, worker);
      log.setInt(2, src);
      log.setInt(3, dst);
      log.setInt(4, amount);
      log.executeUpdate();
      c.commit();
      return true;
    }
  }
}
