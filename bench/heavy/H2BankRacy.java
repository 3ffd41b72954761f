// H2BankRacy: the buggy variant of H2Bank (embedded, in-memory H2 2.1): a lost update.
//
// What it does: the same bank (5 accounts of 1000, 3 threads with a connection each, N
// transfers each, default 20), but each transfer is written the way an ORM-less DAO often is:
// autocommit on, read both balances with SELECTs, compute the new balances in Java, then write
// them back with "UPDATE accounts SET balance = ? WHERE id = ?".
//
// The bug: the read and the write are separate statements in separate transactions, with no
// lock between them (no transaction, no SELECT ... FOR UPDATE, no version column). When two
// tellers read the same account before either writes it, the second write overwrites the
// first: an update is lost, and money appears or disappears. The final check (the sum of the
// balances must stay 5 * 1000) then throws an AssertionError from main. The database does
// nothing wrong here; the application does.
//
// Why it is realistic: the read-modify-write of a row outside a transaction is one of the most
// common concurrency bugs in database code; every JDBC statement here goes through H2's real
// sessions, MVStore transactions and locks, so the window is as wide or narrow as in production.
//
//   java -cp /usr/share/java/h2.jar:OUT H2BankRacy [TRANSFERS_PER_THREAD]
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;

public class H2BankRacy {
  static final int ACCOUNTS = 5;
  static final int INITIAL = 1000;
  static final int THREADS = 3;

  public static void main(String[] args) throws Exception {
    final int n = args.length > 0 ? Integer.parseInt(args[0]) : 20;
    final String url = "jdbc:h2:mem:racybank" + System.nanoTime() + ";DB_CLOSE_DELAY=-1";
    try (Connection c = DriverManager.getConnection(url, "sa", "");
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE accounts(id INT PRIMARY KEY, balance INT NOT NULL)");
      for (int i = 0; i < ACCOUNTS; i++) {
        s.execute("INSERT INTO accounts VALUES(" + i + ", " + INITIAL + ")");
      }
    }
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread[] workers = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      final int worker = t;
      workers[t] = new Thread(() -> {
        try (Connection c = DriverManager.getConnection(url, "sa", "")) {
          Random random = new Random(2000 + worker);
          for (int i = 0; i < n; i++) {
            int src = random.nextInt(ACCOUNTS);
            int dst = (src + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
            transfer(c, src, dst, 1 + random.nextInt(50));
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
      int total;
      try (ResultSet r = s.executeQuery("SELECT SUM(balance) FROM accounts")) {
        r.next();
        total = r.getInt(1);
      }
      s.execute("SHUTDOWN");
      if (total != ACCOUNTS * INITIAL) {
        throw new AssertionError("lost update: total " + total + ", expected "
            + ACCOUNTS * INITIAL);
      }
    }
    System.out.println("H2BankRacy: total conserved (the race did not strike this time)");
  }

  // BUG: read, compute, write back, each statement its own autocommitted transaction.
  static void transfer(Connection c, int src, int dst, int amount) throws SQLException {
    int from = balance(c, src);
    int to = balance(c, dst);
    if (from < amount) return;
    try (PreparedStatement u = c.prepareStatement("UPDATE accounts SET balance = ? WHERE id = ?")) {
      u.setInt(1, from - amount);
      u.setInt(2, src);
      u.executeUpdate();
      u.setInt(1, to + amount);
      u.setInt(2, dst);
      u.executeUpdate();
    }
  }

  static int balance(Connection c, int id) throws SQLException {
    try (PreparedStatement q = c.prepareStatement("SELECT balance FROM accounts WHERE id = ?")) {
      q.setInt(1, id);
      try (ResultSet r = q.executeQuery()) {
        r.next();
        return r.getInt(1);
      }
    }
  }
}
