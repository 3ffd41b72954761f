// Read+write throughput of ASM (ClassReader -> ClassWriter) over a class dump written by
// classfile_bench --dump. Mode "full" decodes and re-encodes everything (what jsched's
// benchmark does); mode "copy" lets ASM copy unchanged methods verbatim (its fast path).
import java.io.DataInputStream;
import java.io.FileInputStream;
import java.io.BufferedInputStream;
import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;

public class AsmRoundtrip {
  public static void main(String[] args) throws Exception {
    String file = args[0];
    String mode = args.length > 1 ? args[1] : "full";
    int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 10;
    List<byte[]> classes = new ArrayList<>();
    long total = 0;
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(new FileInputStream(file)))) {
      while (in.available() > 0) {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        classes.add(b);
        total += b.length;
      }
    }
    double best = 0;
    long sink = 0;
    for (int r = 0; r < rounds; r++) {
      long t0 = System.nanoTime();
      for (byte[] b : classes) {
        ClassReader cr = new ClassReader(b);
        ClassWriter cw = mode.equals("copy") ? new ClassWriter(cr, 0) : new ClassWriter(0);
        cr.accept(cw, 0);
        sink += cw.toByteArray().length;
      }
      double s = (System.nanoTime() - t0) / 1e9;
      double mbs = total / 1e6 / s;
      best = Math.max(best, mbs);
      System.err.printf("round %d: %.1f MB/s%n", r + 1, mbs);
    }
    System.out.printf("asm-%s: %d classes, %.1f MB, best %.1f MB/s (sink %d)%n", mode, classes.size(),
        total / 1e6, best, sink);
  }
}
