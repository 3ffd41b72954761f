/*
 * sockets (NIO, correct variant): the client always speaks first.
 *
 * Same program as NioMain, without the floor: the client connects, writes its greeting and then
 * reads the server's; the server accepts, reads the client's greeting and then writes its own, all
 * on non-blocking SocketChannels with a Selector per side (OP_ACCEPT, OP_CONNECT, OP_READ,
 * OP_WRITE; select() without a timeout). Whatever the interleaving, one side's read always has the
 * other side's write ahead of it. Every channel and selector is closed.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "client and server exchanged
 * greetings over NIO".
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

public class NioFixed {
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
    private final boolean speakFirst;
    private final boolean warmUp;
    private String heard;
    private long setupChecksum;

    Side(String name, boolean speakFirst, boolean warmUp) {
      super(name);
      this.speakFirst = speakFirst;
      this.warmUp = warmUp;
    }

    /** Opens this side's end of the connection. */
    abstract Endpoint connect() throws IOException;

    @Override
    public void run() {
      if (warmUp) {
        setUp();
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

    /** Local preparation (a table checksum) without any synchronization. */
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

    Server(ServerSocketChannel serverChannel) {
      super("server", false, false);
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

    Client(InetSocketAddress address) {
      super("client", true, true);
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
      Server server = new Server(serverChannel);
      Client client = new Client((InetSocketAddress) serverChannel.getLocalAddress());
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
