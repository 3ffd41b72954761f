/*
 * checkthenact (correct variant): lazy creation of a shared object, made atomic.
 *
 * Same program as Main, but getOrCreate is one synchronized method: the lookup, the creation and
 * the store happen under the cache's monitor, so exactly one connection is ever created.
 *
 * Expected jsched outcome: never fails (exit status 0); prints
 * "3 clients share one connection to db".
 */
package jsched.samples.checkthenact;

import java.util.HashMap;
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
