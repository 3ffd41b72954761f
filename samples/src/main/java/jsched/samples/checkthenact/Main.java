/*
 * checkthenact: lazy creation of a shared object through a cache, without atomicity.
 *
 * Models: a connection cache (a HashMap behind synchronized lookup/store methods). Main opens a
 * "config" connection, starts a client thread that asks for "db", and then asks for "log" and
 * "db" itself. The first thread to find a connection missing is supposed to create it, and
 * everybody must end up sharing that one connection.
 *
 * Bug: getOrCreate is check-then-act over two synchronized calls (lookup, then store). When the
 * scheduler switches threads after one thread's lookup of "db" returned null (at its monitorexit)
 * and the other thread also looks "db" up before the first one stores, both create a connection;
 * the later store overwrites the earlier one and the two threads hold different instances.
 * (Opening "config" first loads the Connection class before any thread races, which keeps the
 * window short in plain runs.)
 *
 * Shows as: main joins the client and finds that one of them holds a connection that is not the
 * cached one -> AssertionError thrown by main (jsched exit status 3). Correct runs print
 * "client and main share one connection to db".
 */
package jsched.samples.checkthenact;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class Main {
  static class Connection {
    private final String name;

    Connection(String name) {
      this.name = name;
    }

    String name() {
      return name;
    }
  }

  static class ConnectionCache {
    private final Map<String, Connection> connections = new HashMap<>();

    synchronized Connection lookup(String name) {
      return connections.get(name);
    }

    synchronized void store(String name, Connection connection) {
      connections.put(name, connection);
    }

    // BUG: the check (lookup) and the act (store) are two separate synchronized calls.
    Connection getOrCreate(String name) {
      Connection connection = lookup(name);
      if (connection == null) {
        connection = new Connection(name);
        store(name, connection);
      }
      return connection;
    }
  }

  static class Client extends Thread {
    private final ConnectionCache cache;
    private final String[] wanted;
    private final List<Connection> connections = new ArrayList<>();

    Client(String name, ConnectionCache cache, String... wanted) {
      super(name);
      this.cache = cache;
      this.wanted = wanted;
    }

    @Override
    public void run() {
      for (String name : wanted) {
        connections.add(cache.getOrCreate(name));
      }
    }

    List<Connection> connections() {
      return connections;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    ConnectionCache cache = new ConnectionCache();
    Connection config = cache.getOrCreate("config"); // main's own connection, opened up front
    Client client = new Client("client", cache, "db");
    client.start();
    // main is the second client: it needs "log" and then "db"
    Connection log = cache.getOrCreate("log");
    Connection db = cache.getOrCreate("db");
    client.join();
    if (cache.lookup("config") != config || cache.lookup("log") != log
        || cache.lookup("db") != db) {
      throw new AssertionError("main holds a second connection");
    }
    for (Connection connection : client.connections()) {
      if (cache.lookup(connection.name()) != connection) {
        throw new AssertionError(
            client.getName() + " holds a second connection to " + connection.name());
      }
    }
    System.out.println("client and main share one connection to db");
  }
}
