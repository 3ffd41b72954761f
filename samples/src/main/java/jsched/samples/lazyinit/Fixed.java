/*
 * lazyinit (correct variant): the configuration is filled in before it is published, under a
 * lock.
 *
 * Same program as Main, but Config.get() is a synchronized method, and the loader sets the port,
 * the timeout and the host before it stores the Config in `instance`. A thread that finds
 * instance non-null found it under the same lock that the loader held while filling it in, so it
 * sees every field set; only one thread ever loads.
 *
 * Expected jsched outcome: never fails (exit status 0); prints
 * "client and main use db.example.org:5432".
 */
package jsched.samples.lazyinit;

public class Fixed {
  static class Config {
    static Config instance; // guarded by Config.class

    String host;
    int port;
    int timeoutMillis;

    static synchronized Config get() {
      if (instance == null) {
        Config config = new Config();
        config.port = 5432;
        config.timeoutMillis = 2000;
        config.host = "db.example.org";
        instance = config; // published only when complete
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
      address = config.address();
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
