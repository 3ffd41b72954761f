/*
 * hashmaprace (correct variant): the registry's look-up-or-create is one synchronized method.
 *
 * Same program as Main, but pool() and registered() are synchronized on the registry, so get,
 * create and put are one atomic step: the second thread to ask for "orders" finds the first
 * one's pool in the map.
 *
 * Expected jsched outcome: never fails (exit status 0); prints
 * "worker and main share one pool for orders".
 */
package jsched.samples.hashmaprace;

import java.util.HashMap;
import java.util.Map;

public class Fixed {
  static class Pool {
    final String database;
    int maxConnections;
    int idle;
    boolean open;

    Pool(String database) {
      this.database = database;
      this.maxConnections = 8;
      this.idle = 0;
      this.open = true;
    }
  }

  static class Registry {
    private final Map<String, Pool> pools = new HashMap<>();

    synchronized Pool pool(String database) {
      Pool pool = pools.get(database);
      if (pool == null) {
        pool = new Pool(database);
        pools.put(database, pool);
      }
      return pool;
    }

    synchronized Pool registered(String database) {
      return pools.get(database);
    }
  }

  static class Worker extends Thread {
    private final Registry registry;
    private long setupChecksum;
    Pool pool;

    Worker(Registry registry) {
      super("worker");
      this.registry = registry;
    }

    @Override
    public void run() {
      setUp();
      pool = registry.pool("orders");
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
    Registry registry = new Registry();
    registry.pool("customers"); // before the race: loads the Pool class
    Worker worker = new Worker(registry);
    worker.start();
    Pool mine = registry.pool("orders");
    worker.join();
    Pool registered = registry.registered("orders");
    if (worker.pool != mine || registered != mine) {
      throw new AssertionError("two pools for orders: the registered one is "
          + (registered == mine ? "main's" : "the worker's") + ", the other "
          + (registered == mine ? "the worker's" : "main's"));
    }
    System.out.println("worker and main share one pool for orders");
  }
}
