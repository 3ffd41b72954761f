/*
 * sockets (correct variant): the client always speaks first.
 *
 * Same program as Main, without the floor: the protocol fixes the order. The client connects,
 * writes its greeting and then reads the server's; the server accepts, reads the client's
 * greeting and then writes its own. Whatever the interleaving, one side's read always has the
 * other side's write ahead of it. No socket has a timeout, and every socket is closed.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "client and server exchanged
 * greetings".
 */
package jsched.samples.sockets;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

public class Fixed {
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
    abstract Socket connect() throws IOException;

    @Override
    public void run() {
      if (warmUp) {
        setUp();
      }
      try (Socket socket = connect()) {
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        DataInputStream in = new DataInputStream(socket.getInputStream());
        String greeting = "hello from " + getName();
        if (speakFirst) {
          out.writeUTF(greeting);
          out.flush();
          heard = in.readUTF();
        } else {
          heard = in.readUTF();
          out.writeUTF(greeting);
          out.flush();
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
    private final ServerSocket serverSocket;

    Server(ServerSocket serverSocket) {
      super("server", false, false);
      this.serverSocket = serverSocket;
    }

    @Override
    Socket connect() throws IOException {
      return serverSocket.accept();
    }
  }

  static class Client extends Side {
    private final InetAddress address;
    private final int port;

    Client(InetAddress address, int port) {
      super("client", true, true);
      this.address = address;
      this.port = port;
    }

    @Override
    Socket connect() throws IOException {
      return new Socket(address, port);
    }
  }

  public static void main(String[] args) throws IOException, InterruptedException {
    InetAddress loopback = InetAddress.getByAddress(new byte[] {127, 0, 0, 1});
    try (ServerSocket serverSocket = new ServerSocket(0, 1, loopback)) {
      Server server = new Server(serverSocket);
      Client client = new Client(loopback, serverSocket.getLocalPort());
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
    System.out.println("client and server exchanged greetings");
  }
}
