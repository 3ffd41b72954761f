/*
 * checkthenact: lazy creation of a shared object through a cache, without atomicity.
 *
 * Models: a connection cache (a HashMap behind synchronized lookup/store methods). Three client
 * threads ask for the connection named "db"; the first one to find it missing is supposed to
 * create it, and everybody must end up sharing that one connection.
 *
 * Bug: getOrCreate is check-then-act over two synchronized calls (lookup, then store). When the
 * scheduler switches threads after a client's lookup returned null (at its monitorexit) and
 * another client also looks up before the first one stores, both create a connection; the later
 * store overwrites the earlier one and the clients hold different instances.
 *
 * Shows as: main joins the clients and finds two distinct connections -> AssertionError thrown by
 * main (jsched exit status 3). Correct runs print "3 clients share one connection to db".
 */
package jsched.samples.checkthenact;

import java.util.HashMap;
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
    private Connection connection;

    Client(String name, ConnectionCache cache) {
      super(name);
      this.cache = cache;
    }

    @Override
    public void run() {
      connection = cache.getOrCreate("db");
    }

    Connection connection() {
      return connection;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    ConnectionCache cache = new ConnectionCache();
    Client[] clients = new Client[3];
    for (int i = 0; i < clients.length; i++) {
      clients[i] = new Client("client-" + (i + 1), cache);
    }
    for (Client client : clients) {
      client.start();
    }
    for (Client client : clients) {
      client.join();
    }
    Connection shared = cache.lookup("db");
    for (Client client : clients) {
      if (client.connection() != shared) {
        throw new AssertionError(client.getName() + " holds a second connection to db");
      }
    }
    System.out.println(clients.length + " clients share one connection to " + shared.name());
  }
}
