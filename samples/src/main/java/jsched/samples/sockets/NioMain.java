/*
 * sockets (NIO): both ends of a non-blocking loopback connection selecting for reads.
 *
 * Models: the greeting protocol of Main over java.nio: a ServerSocketChannel bound by main to
 * 127.0.0.1 on a free port, and SocketChannels in non-blocking mode, each side with a Selector of
 * its own. The server selects for OP_ACCEPT and accepts one connection; the client connects and
 * selects for OP_CONNECT; after that each side reads a line, selecting for OP_READ whenever the
 * channel has nothing, and writes a line, selecting for OP_WRITE if the channel's buffer is full.
 * Who speaks first is settled through the shared floor, as in Main. The server is started first;
 * the client first does some local computation. Selector.select() is never given a timeout, and
 * every channel and selector is closed.
 *
 * Bug: as in Main, the check (floor.listener()) and the announcement (floor.listen()) are two
 * synchronized calls. When the scheduler switches threads between one side's check and its
 * announcement, both sides announce that they listen, and both block in Selector.select() waiting
 * for a line that nobody will ever write.
 *
 * Shows as: deadlock, both threads blocked in select() and main blocked in join (jsched exit
 * status 4 for a scheduler that models selectors; a plain run that hits it hangs). Correct runs
 * print "client and server exchanged greetings over NIO".
 */
package jsched.samples.sockets;

import java.io.EOFException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

public class NioMain {
  /** Who is waiting to hear first, if anybody. */
  static class Floor {
    private String listener;

    synchronized String listener() {
      return listener;
    }

    synchronized void listen(String side) {
      listener = side;
    }
  }

  /** One side's end of the connection: a non-blocking channel and a selector for it. */
  static final class Endpoint implements AutoCloseable {
    private final SocketChannel channel;
    private final Selector selector;
    private final SelectionKey key;
    private final ByteBuffer in = ByteBuffer.allocate(256);

    Endpoint(SocketChannel channel) throws IOException {
      this.channel = channel;
      channel.configureBlocking(false);
      this.selector = Selector.open();
      this.key = channel.register(selector, 0);
    }

    /** Blocks in select() (no timeout) until the channel is ready for one of ops. */
    void await(int ops) throws IOException {
      key.interestOps(ops);
      boolean ready = false;
      while (!ready) {
        selector.select();
        ready = selector.selectedKeys().remove(key) && (key.readyOps() & ops) != 0;
      }
      key.interestOps(0);
    }

    void connect(InetSocketAddress address) throws IOException {
      if (!channel.connect(address)) {
        while (!channel.finishConnect()) {
          await(SelectionKey.OP_CONNECT);
        }
      }
    }

    void writeLine(String line) throws IOException {
      ByteBuffer out = ByteBuffer.wrap((line + "\n").getBytes(StandardCharsets.UTF_8));
      while (out.hasRemaining()) {
        if (channel.write(out) == 0) {
          await(SelectionKey.OP_WRITE);
        }
      }
    }

    String readLine() throws IOException {
      while (true) {
        for (int i = 0; i < in.position(); i++) {
          if (in.get(i) == '\n') {
            byte[] bytes = new byte[i];
            in.flip();
            in.get(bytes);
            in.get(); // the newline
            in.compact();
            return new String(bytes, StandardCharsets.UTF_8);
          }
        }
        int read = channel.read(in);
        if (read < 0) {
          throw new EOFException("connection closed before a whole line");
        }
        if (read == 0) {
          await(SelectionKey.OP_READ);
        }
      }
    }

    @Override
    public void close() throws IOException {
      try {
        selector.close();
      } finally {
        channel.close();
      }
    }
  }

  abstract static class Side extends Thread {
    private final Floor floor;
    private final boolean warmUp;
    private String heard;
    private long setupChecksum;

    Side(String name, Floor floor, boolean warmUp) {
      super(name);
      this.floor = floor;
      this.warmUp = warmUp;
    }

    /** Opens this side's end of the connection. */
    abstract Endpoint connect() throws IOException;

    @Override
    public void run() {
      if (warmUp) {
        setUp();
      }
      // BUG: the check and the announcement are two synchronized calls.
      boolean speakFirst = floor.listener() != null;
      if (!speakFirst) {
        floor.listen(getName());
      }
      try (Endpoint endpoint = connect()) {
        String greeting = "hello from " + getName();
        if (speakFirst) {
          endpoint.writeLine(greeting);
          heard = endpoint.readLine();
        } else {
          heard = endpoint.readLine();
          endpoint.writeLine(greeting);
        }
      } catch (IOException e) {
        throw new IllegalStateException(getName() + ": " + e, e);
      }
    }

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps this side behind the other one.
     */
    private void setUp() {
      long sum = 0;
      for (int i = 0; i < 200_000; i++) {
        sum = sum * 31 + i;
      }
      setupChecksum = sum;
    }

    String heard() {
      return heard;
    }
  }

  static class Server extends Side {
    private final ServerSocketChannel serverChannel;

    Server(Floor floor, ServerSocketChannel serverChannel) {
      super("server", floor, false);
      this.serverChannel = serverChannel;
    }

    @Override
    Endpoint connect() throws IOException {
      serverChannel.configureBlocking(false);
      try (Selector selector = Selector.open()) {
        SelectionKey key = serverChannel.register(selector, SelectionKey.OP_ACCEPT);
        SocketChannel accepted;
        while ((accepted = serverChannel.accept()) == null) {
          selector.select();
          selector.selectedKeys().clear();
        }
        key.cancel();
        try {
          return new Endpoint(accepted);
        } catch (IOException e) {
          accepted.close();
          throw e;
        }
      }
    }
  }

  static class Client extends Side {
    private final InetSocketAddress address;

    Client(Floor floor, InetSocketAddress address) {
      super("client", floor, true);
      this.address = address;
    }

    @Override
    Endpoint connect() throws IOException {
      Endpoint endpoint = new Endpoint(SocketChannel.open());
      try {
        endpoint.connect(address);
        return endpoint;
      } catch (IOException e) {
        endpoint.close();
        throw e;
      }
    }
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    InetAddress loopback = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    try (ServerSocketChannel serverChannel = ServerSocketChannel.open()) {
      serverChannel.bind(new InetSocketAddress(loopback, 0), 1);
      Floor floor = new Floor();
      Server server = new Server(floor, serverChannel);
      Client client =
          new Client(floor, (InetSocketAddress) serverChannel.getLocalAddress());
      server.start();
      client.start();
      server.join();
      client.join();
      if (!"hello from client".equals(server.heard())
          || !"hello from server".equals(client.heard())) {
        throw new AssertionError(
            "server heard " + server.heard() + ", client heard " + client.heard());
      }
    }
    System.out.println("client and server exchanged greetings over NIO");
  }
}
