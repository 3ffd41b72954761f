// Initializing the JDK's virtual-thread machinery (JDK 21+) starts threads that serve virtual
// threads only: the unblocker in VirtualThread.<clinit>, the I/O pollers (platform threads in
// epoll_wait, and virtual sub-pollers). With the JDK instrumented (include=*) they are not the
// program's threads: the program ends at once, not in a hang with them in the model.
public class VtService {
  public static void main(String[] args) throws Exception {
    if (Runtime.version().feature() < 21) {
      System.out.println("no virtual threads before JDK 21");
      return;
    }
    ClassLoader loader = VtService.class.getClassLoader();
    for (String c : new String[] {"java.lang.VirtualThread", "sun.nio.ch.Poller"}) {
      Class.forName(c, true, loader);
    }
    System.out.println("service ok");
  }
}
