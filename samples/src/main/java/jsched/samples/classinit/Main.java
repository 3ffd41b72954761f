/*
 * classinit: two classes whose static initializers need each other, initialized from two threads.
 *
 * Models: two plug-ins, Alpha and Beta, each of which registers itself with a registry (a
 * synchronized static method) in its static initializer and then records its partner's
 * registration number, which it reads from the partner class's static field. The thread
 * "alpha-user" uses Alpha first, "beta-user" uses Beta first (after some local preparation).
 * Main loads both classes (without initializing them) and initializes the registry before it
 * starts the threads.
 *
 * Bug: the first use of a class from a thread runs its static initializer, and another thread
 * that uses the class meanwhile waits until the initialization is complete (JVMS 5.5, steps 2 and
 * 10-11). When alpha-user has started Alpha's initialization and the scheduler switches threads
 * at its registry call, beta-user starts Beta's; Beta's initializer then waits for Alpha's to
 * complete, and Alpha's initializer, reading Beta.ORDER, waits for Beta's. Neither completes:
 * a deadlock on class initialization (no monitor, lock or wait the program can see). When one
 * thread initializes both classes before the other arrives, the other just finds them ready.
 *
 * Shows as: deadlock, both user threads waiting for a class initialization the other one runs and
 * main blocked in join (jsched exit status 4; a plain run that hits it hangs). Correct runs print
 * "alpha and beta registered, 2 registrations, partners agree". (beta-user first does some local
 * computation without any synchronization, so in plain runs alpha-user has initialized both
 * classes before beta-user touches Beta.)
 */
package jsched.samples.classinit;

public class Main {
  static class Registry {
    private static int registered;

    static synchronized int register(String name) {
      return ++registered;
    }

    static synchronized int registered() {
      return registered;
    }
  }

  static class Alpha {
    static final int ORDER = Registry.register("alpha");
    // BUG: Alpha's initialization needs Beta initialized, and Beta's needs Alpha.
    static final int PARTNER_ORDER = Beta.ORDER;
  }

  static class Beta {
    static final int ORDER = Registry.register("beta");
    static final int PARTNER_ORDER = Alpha.ORDER;
  }

  static class AlphaUser extends Thread {
    private int partner;

    AlphaUser() {
      super("alpha-user");
    }

    @Override
    public void run() {
      partner = Alpha.PARTNER_ORDER;
    }

    int partner() {
      return partner;
    }
  }

  static class BetaUser extends Thread {
    private int partner;
    private long setupChecksum;

    BetaUser() {
      super("beta-user");
    }

    @Override
    public void run() {
      setUp();
      partner = Beta.PARTNER_ORDER;
    }

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps this thread behind alpha-user.
     */
    private void setUp() {
      long sum = 0;
      for (int i = 0; i < 200_000; i++) {
        sum = sum * 31 + i;
      }
      setupChecksum = sum;
    }

    int partner() {
      return partner;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    // Load the plug-in classes (a class literal does not initialize) and initialize the registry
    // now, so that the threads only race to initialize Alpha and Beta.
    Class<?>[] plugins = {Alpha.class, Beta.class};
    int before = Registry.registered();
    AlphaUser alphaUser = new AlphaUser();
    BetaUser betaUser = new BetaUser();
    alphaUser.start();
    betaUser.start();
    alphaUser.join();
    betaUser.join();
    int registrations = Registry.registered() - before;
    if (registrations != plugins.length
        || alphaUser.partner() != Beta.ORDER
        || betaUser.partner() != Alpha.ORDER) {
      throw new AssertionError(
          "registrations=" + registrations + " alpha=" + Alpha.ORDER + " beta=" + Beta.ORDER
              + " alpha's partner=" + alphaUser.partner()
              + " beta's partner=" + betaUser.partner());
    }
    System.out.println(
        "alpha and beta registered, " + registrations + " registrations, partners agree");
  }
}
