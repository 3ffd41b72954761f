/*
 * varhandle (correct variant): a lock-free hand-off over VarHandles and field updaters.
 *
 * Models: a request/reply exchange between a client and a server thread without locks. The
 * exchange object has a state (0 empty, 1 request posted, 2 reply posted) accessed through a
 * VarHandle, a plain request field published by the release write of state 1, a reply field
 * set through an AtomicReferenceFieldUpdater, a count of handled requests (an
 * AtomicIntegerFieldUpdater), a count of acknowledgements (getAndAdd through a VarHandle on an
 * int field) and the lengths of what each side received (getAndAdd through an array-element
 * VarHandle). The client writes the request, sets state 1 with setRelease and spins, without
 * Thread.onSpinWait(), until getVolatile returns 2; the server spins with onSpinWait() until it
 * sees state 1, reads the request, stores the reply with the updater's compareAndSet, counts the
 * request and moves state from 1 to 2 with compareAndSet.
 *
 * Correct: every state change is a volatile or release write that the other side's volatile read
 * sees, so the request and the reply are visible when the state says so, and each spin ends as
 * soon as the other thread has run its next few steps. A scheduler that does not treat VarHandle
 * accesses as scheduling points never lets the server run while the client spins in a loop with
 * no other scheduling point: it reports a hang where a JVM finishes in microseconds.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "ping/pong exchanged, lengths 4 4,
 * handled 1, acks 1".
 */
package jsched.samples.varhandle;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicReferenceFieldUpdater;

public class Fixed {
  static final int EMPTY = 0;
  static final int REQUESTED = 1;
  static final int REPLIED = 2;
  static final int CLIENT = 0;
  static final int SERVER = 1;

  static class Exchange {
    private static final VarHandle STATE;
    private static final VarHandle ACKS;
    private static final VarHandle RECEIVED = MethodHandles.arrayElementVarHandle(int[].class);
    private static final AtomicIntegerFieldUpdater<Exchange> HANDLED =
        AtomicIntegerFieldUpdater.newUpdater(Exchange.class, "handled");
    private static final AtomicReferenceFieldUpdater<Exchange, String> REPLY =
        AtomicReferenceFieldUpdater.newUpdater(Exchange.class, String.class, "reply");

    static {
      try {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        STATE = lookup.findVarHandle(Exchange.class, "state", int.class);
        ACKS = lookup.findVarHandle(Exchange.class, "acks", int.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private int state; // through STATE
    private String request; // plain; published by STATE.setRelease(REQUESTED)
    private int acks; // through ACKS
    private final int[] received = new int[2]; // through RECEIVED, indexed CLIENT / SERVER
    volatile int handled; // through HANDLED
    volatile String reply; // through REPLY
  }

  static class Client extends Thread {
    private final Exchange exchange;

    Client(Exchange exchange) {
      super("client");
      this.exchange = exchange;
    }

    @Override
    public void run() {
      exchange.request = "ping";
      Exchange.STATE.setRelease(exchange, REQUESTED);
      while ((int) Exchange.STATE.getVolatile(exchange) != REPLIED) {
        // spin without Thread.onSpinWait(): nothing here but the VarHandle read
      }
      String reply = Exchange.REPLY.get(exchange);
      Exchange.RECEIVED.getAndAdd(exchange.received, CLIENT, reply.length());
      Exchange.ACKS.getAndAdd(exchange, 1);
    }
  }

  static class Server extends Thread {
    private final Exchange exchange;

    Server(Exchange exchange) {
      super("server");
      this.exchange = exchange;
    }

    @Override
    public void run() {
      while ((int) Exchange.STATE.getVolatile(exchange) != REQUESTED) {
        Thread.onSpinWait();
      }
      String request = exchange.request;
      Exchange.RECEIVED.getAndAdd(exchange.received, SERVER, request.length());
      if (!Exchange.REPLY.compareAndSet(exchange, null, "pong")) {
        throw new AssertionError("reply already set");
      }
      Exchange.HANDLED.incrementAndGet(exchange);
      if (!Exchange.STATE.compareAndSet(exchange, REQUESTED, REPLIED)) {
        throw new AssertionError("state changed under the server");
      }
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Exchange exchange = new Exchange();
    Client client = new Client(exchange);
    Server server = new Server(exchange);
    client.start();
    server.start();
    client.join();
    server.join();
    int toClient = (int) Exchange.RECEIVED.getVolatile(exchange.received, CLIENT);
    int toServer = (int) Exchange.RECEIVED.getVolatile(exchange.received, SERVER);
    int handled = Exchange.HANDLED.get(exchange);
    int acks = (int) Exchange.ACKS.getVolatile(exchange);
    if (toClient != 4 || toServer != 4 || handled != 1 || acks != 1) {
      throw new AssertionError(
          "lengths " + toClient + " " + toServer + ", handled " + handled + ", acks " + acks);
    }
    System.out.println(
        "ping/pong exchanged, lengths " + toClient + " " + toServer + ", handled " + handled
            + ", acks " + acks);
  }
}
