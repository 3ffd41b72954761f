import java.io.File;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

// An embedded database's start-up, as far as files go: it locks app.db in the working
// directory (a second JVM there fails to start it) and keeps a scratch file of a fixed name in
// java.io.tmpdir; with the argument "seeded" it also needs seed.txt in the working directory.
// Its threads do some work while it holds both. Correct on its own: two JVMs side by side in
// one directory break it.
public class Database {
  static volatile long work;

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("seeded") && !new File("seed.txt").exists())
      throw new IllegalStateException("no seed.txt in " + new File("").getAbsolutePath());
    File scratch = new File(System.getProperty("java.io.tmpdir"), "jsched-database-scratch");
    if (!scratch.createNewFile())
      throw new IllegalStateException("scratch file in use: " + scratch);
    try (FileChannel ch =
            FileChannel.open(
                Path.of("app.db"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock = ch.tryLock()) {
      if (lock == null) throw new IllegalStateException("Failed to start database: app.db in use");
      Runnable busy =
          () -> {
            long until = System.nanoTime() + 600_000_000L;
            while (System.nanoTime() < until) work++;
          };
      Thread t = new Thread(busy);
      t.start();
      busy.run();
      t.join();
    } finally {
      scratch.delete();
    }
  }
}
