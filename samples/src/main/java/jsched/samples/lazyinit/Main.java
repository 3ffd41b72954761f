/*
 * lazyinit: a lazily created configuration published before it is filled in, with no lock.
 *
 * Models: an application's configuration, loaded on first use through Config.get(). The loader
 * builds it in steps, as code does that registers an object early: it creates the Config, stores
 * it in the shared static field `instance` (plain, not volatile), and only then fills in the
 * port, the timeout and the host. Main starts a client thread and asks for the configuration
 * itself; the client asks for it too and connects to config.host.
 *
 * Bug: get() is an unsynchronized check-then-act on a plain field, and the object is visible
 * to other threads before its fields are set. When the scheduler switches threads after the
 * loader has stored the new Config but before it has set the host, the other thread finds
 * instance non-null, skips loading, and reads a host that is still null. If both threads find
 * instance null, both load, and one can return the other's half-built Config. Every step of the
 * race is a plain field access: the bug needs plain field accesses to be scheduling points
 * (agent option accesses=all); with the default accesses=volatile there is no scheduling point
 * between the publication and the fills.
 *
 * Shows as: NullPointerException (host.length() on a null host) in the thread that did not load
 * the configuration: the client, or main when the client got to load first (jsched exit status
 * 3). Correct runs print "client and main use db.example.org:5432". (The client first does some
 * local computation without any synchronization, so in plain runs main has loaded the
 * configuration before the client asks for it.)
 */
package jsched.samples.lazyinit;

public class Main {
  static class Config {
    static Config instance; // BUG: plain field, written without a lock

    String host;
    int port;
    int timeoutMillis;

    static Config get() {
      if (instance == null) {
        Config config = new Config();
        instance = config; // BUG: published before its fields are set
        config.port = 5432;
        config.timeoutMillis = 2000;
        config.host = "db.example.org";
      }
      return instance;
    }

    String address() {
      return host.length() > 0 ? host + ":" + port : "localhost:" + port;
    }
  }

  static class Client extends Thread {
    private long setupChecksum;
    String address;

    Client() {
      super("client");
    }

    @Override
    public void run() {
      setUp();
      Config config = Config.get();
      address = config.address(); // NullPointerException when host is not set yet
    }

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps the client behind main.
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
    Client client = new Client();
    client.start();
    String address = Config.get().address();
    client.join();
    if (!address.equals(client.address)) {
      throw new AssertionError("client uses " + client.address + ", main uses " + address);
    }
    System.out.println("client and main use " + address);
  }
}
