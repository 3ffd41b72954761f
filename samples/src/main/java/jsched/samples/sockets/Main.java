/*
 * sockets: both ends of a loopback connection waiting to hear from the other.
 *
 * Models: a polite greeting protocol over TCP on the loopback interface. Main binds a ServerSocket
 * to 127.0.0.1 on a free port; a server thread accepts one connection and a client thread connects
 * to it. Each side says "hello from <name>" once and hears the other's greeting once. Who speaks
 * first is settled through a shared "floor" object before the connection is made: a side that
 * finds the other already listening speaks first (writes its greeting, then reads); otherwise it
 * announces that it listens and reads first, then answers. The server is started first; the
 * client first does some local computation. No socket has a timeout, and every socket is closed.
 *
 * Bug: the check (floor.listener()) and the announcement (floor.listen()) are two synchronized
 * calls. When the scheduler switches threads between one side's check and its announcement, the
 * other side also finds nobody listening; both announce that they listen, and both block in
 * read() on a connection on which nobody will ever write.
 *
 * Shows as: deadlock, both threads blocked reading their socket and main blocked in join (jsched
 * exit status 4 for a scheduler that models blocking socket reads; a plain run that hits it
 * hangs). Correct runs print "client and server exchanged greetings". (In plain runs the server
 * has announced that it listens long before the client looks.)
 */
package jsched.samples.sockets;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

public class Main {
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
    abstract Socket connect() throws IOException;

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
    private final ServerSocket serverSocket;

    Server(Floor floor, ServerSocket serverSocket) {
      super("server", floor, false);
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

    Client(Floor floor, InetAddress address, int port) {
      super("client", floor, true);
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
      Floor floor = new Floor();
      Server server = new Server(floor, serverSocket);
      Client client = new Client(floor, loopback, serverSocket.getLocalPort());
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
