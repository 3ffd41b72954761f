// JettyHello: an embedded Eclipse Jetty 9.4 server (Debian's jetty9-server, -http, -io, -util
// and servlet-api 3.1 jars) answering HTTP clients of the same process, a fixed program of the
// heavy set (bench/heavy_programs.sh).
//
// What it does: starts a Jetty server on 127.0.0.1, port 0 (any free port), with a small
// QueuedThreadPool (at most 8 threads, one acceptor, one selector) and a handler that counts
// the requests and answers "hello <path> <count>"; 2 client threads each make N GET requests
// (default 15) with java.net.HttpURLConnection (keep-alive on, as by default), then the server
// is stopped.
//
// What it checks: every response is 200 with the body naming the path asked for, the handler
// counted exactly 2N requests, and the server stops cleanly. Anything else throws an
// AssertionError from main: a bug in Jetty or the JDK's HTTP client (or a wrong verdict of the
// tool).
//
// Why it is realistic: an embedded HTTP server tested from the same JVM, the way integration
// tests of web services run: Jetty's acceptor and selector threads (NIO ServerSocketChannel,
// Selector), its thread pool and connection lifecycle, and the JDK client's keep-alive cache.
//
//   java -cp /usr/share/java/jetty9-server.jar:/usr/share/java/jetty9-http.jar:\
//     /usr/share/java/jetty9-io.jar:/usr/share/java/jetty9-util.jar:\
//     /usr/share/java/servlet-api-3.1.jar:OUT JettyHello [REQUESTS_PER_CLIENT]
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.AbstractHandler;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

public class JettyHello {
  static final int CLIENTS = 2;

  public static void main(String[] args) throws Exception {
    final int n = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    System.setProperty("org.eclipse.jetty.util.log.class", "org.eclipse.jetty.util.log.StdErrLog");
    System.setProperty("org.eclipse.jetty.LEVEL", "WARN");
    final AtomicInteger handled = new AtomicInteger();
    QueuedThreadPool threads = new QueuedThreadPool(8, 2);
    threads.setName("jetty");
    Server server = new Server(threads);
    ServerConnector connector = new ServerConnector(server, 1, 1);
    connector.setHost("127.0.0.1");
    connector.setPort(0);
    server.addConnector(connector);
    server.setHandler(new AbstractHandler() {
      @Override
      public void handle(String target, Request base, HttpServletRequest request,
          HttpServletResponse response) throws IOException {
        int count = handled.incrementAndGet();
        response.setStatus(200);
        response.setContentType("text/plain; charset=utf-8");
        response.getWriter().print("hello " + target + " " + count);
        base.setHandled(true);
      }
    });
    server.start();
    final int port = connector.getLocalPort();
    System.out.println("JettyHello: listening on 127.0.0.1:" + port);
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread[] clients = new Thread[CLIENTS];
    for (int t = 0; t < CLIENTS; t++) {
      final int client = t;
      clients[t] = new Thread(() -> {
        try {
          for (int i = 0; i < n; i++) {
            String path = "/c" + client + "/r" + i;
            URL url = new URL("http://127.0.0.1:" + port + path);
            HttpURLConnection c = (HttpURLConnection) url.openConnection();
            c.setConnectTimeout(30000);
            c.setReadTimeout(30000);
            int status = c.getResponseCode();
            String body;
            try (InputStream in = c.getInputStream()) {
              ByteArrayOutputStream out = new ByteArrayOutputStream();
              in.transferTo(out);
              body = out.toString(StandardCharsets.UTF_8);
            }
            if (status != 200) throw new AssertionError(path + ": status " + status);
            if (!body.startsWith("hello " + path + " ")) {
              throw new AssertionError(path + ": body '" + body + "'");
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "client-" + t);
      clients[t].start();
    }
    for (Thread c : clients) c.join();
    server.stop();
    server.join();
    if (failure.get() != null) {
      throw new AssertionError("a client failed: " + failure.get(), failure.get());
    }
    if (handled.get() != CLIENTS * n) {
      throw new AssertionError("handled " + handled.get() + " of " + CLIENTS * n);
    }
    if (!server.isStopped()) throw new AssertionError("server not stopped: " + server.getState());
    System.out.println("JettyHello: " + handled.get() + " requests answered");
  }
}
