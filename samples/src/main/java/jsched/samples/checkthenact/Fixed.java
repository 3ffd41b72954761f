/*
 * checkthenact (correct variant): lazy creation of a shared object, made atomic.
 *
 * Same program as Main, but getOrCreate is one synchronized method: the lookup, the creation and
 * the store happen under the cache's monitor, so exactly one connection per name is ever created.
 *
 * Expected jsched outcome: never fails (exit status 0); prints
 * "client and main share one connection to db".
 */
package jsched.samples.checkthenact;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class Fixed {
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

    synchronized Connection getOrCreate(String name) {
      Connection connection = connections.get(name);
      if (connection == null) {
        connection = new Connection(name);
        connections.put(name, connection);
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
