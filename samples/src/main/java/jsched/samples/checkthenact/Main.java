/*
 * checkthenact: lazy creation of a shared object through a cache, without atomicity.
 *
 * Models: a connection cache (a HashMap behind synchronized lookup/store methods). Two client
 * threads ask for connections by name: client 1 for "db", client 2 for "log" and then "db". The
 * first client to find a connection missing is supposed to create it, and everybody must end up
 * sharing that one connection.
 *
 * Bug: getOrCreate is check-then-act over two synchronized calls (lookup, then store). When the
 * scheduler switches threads after a client's lookup returned null (at its monitorexit) and
 * another client also looks up before the first one stores, both create a connection; the later
 * store overwrites the earlier one and the clients hold different instances.
 *
 * Shows as: main joins the clients and finds a client holding a connection that is not the cached
 * one -> AssertionError thrown by main (jsched exit status 3). Correct runs print
 * "2 clients share one connection to db and one to log".
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
    Client[] clients = {
      new Client("client-1", cache, "db"),
      new Client("client-2", cache, "log", "db"),
    };
    for (Client client : clients) {
      client.start();
    }
    for (Client client : clients) {
      client.join();
    }
    for (Client client : clients) {
      for (Connection connection : client.connections()) {
        if (cache.lookup(connection.name()) != connection) {
          throw new AssertionError(client.getName() + " holds a second connection to " + connection.name());
        }
      }
    }
    System.out.println(clients.length + " clients share one connection to db and one to log");
  }
}
