/*
 * hashmaprace: check-then-act on a plain HashMap shared by threads without a lock.
 *
 * Models: a registry of connection pools, one per database name, kept in a java.util.HashMap.
 * pool(name) looks the name up and, when it is missing, creates the pool (which sets up its
 * fields) and puts it in the map. Main creates the "customers" pool, starts a worker thread that
 * asks for the "orders" pool, and asks for "orders" itself. Each pool must be created exactly
 * once, and everybody must share it.
 *
 * Bug: pool() is an unsynchronized check-then-act (get, create, put) on a map shared by two
 * threads. When the scheduler switches threads while one thread creates the pool (at a field
 * write in the Pool constructor, after its get() returned null) and the other thread looks the
 * name up before the first one puts, both create a pool; the later put replaces the earlier pool
 * and the two threads hold different instances. The map's own code (java.util, not instrumented
 * by default) runs in one step; the switch has to come at a plain field access of the program
 * between get and put, so the bug needs accesses=all: with the default accesses=volatile there
 * is no scheduling point in the race at all.
 *
 * Shows as: main joins the worker and finds two pools for "orders" (the worker's and its own are
 * not the same object, or not the registered one) -> AssertionError thrown by main (jsched exit
 * status 3). Correct runs print "worker and main share one pool for orders". (Creating
 * "customers" first loads the Pool class before any thread races, and the worker first does some
 * local computation without any synchronization, so in plain runs main has created the "orders"
 * pool before the worker asks for it.)
 */
package jsched.samples.hashmaprace;

import java.util.HashMap;
import java.util.Map;

public class Main {
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

    /** BUG: get, create, put without a lock. */
    Pool pool(String database) {
      Pool pool = pools.get(database);
      if (pool == null) {
        pool = new Pool(database); // the other thread may look the name up meanwhile
        pools.put(database, pool);
      }
      return pool;
    }

    Pool registered(String database) {
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

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps the worker behind main.
     */
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
