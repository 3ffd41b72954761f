/*
 * Loads and initializes every class of a set of jars (or of the JDK's own modules) once on the
 * plain JVM and once under the agent in each instrumentation mode asked for, and lists every
 * class whose loading fails only under the agent (docs/agent.md, "Real-world class files").
 *
 * Run with the JDK's source launcher (tests/corpus/jar_sweep.sh does):
 *
 *   java JarSweep.java sweep --agent LIB --out DIR [--java JAVA] [--jobs N]
 *        [--mode NAME=OPTIONS]... (JAR... | --jdk)
 *
 * Each jar (or the JDK) is loaded by child JVMs (`JarSweep load LIST START`) with the jar on the
 * class path, so that its manifest's Class-Path brings its dependencies as Debian installs them.
 * A child prints one line per class; a child that dies or stops printing for --stall seconds is
 * killed and a new one goes on after the class it was at (that class: DIED, or HUNG when the
 * child used no CPU in the 5 s after the stall, SLOW when it was still computing). A class fails
 * only under the agent when the plain run loaded it and the agent's did not (SLOW aside: listed
 * in DIR/slow.txt, as it loaded and is still initializing), or when both failed with throwables
 * of different classes. Static initializers run, so the JVMs run headless. A thread an
 * initializer started that dies of an exception is a bug to jsched (the JVM ends, status 3); when
 * a thread died of the same exception on the plain JVM, that class is the program's own failure,
 * counted apart.
 *
 * Prints one line per jar and mode, then a summary; writes DIR/failures.txt (every agent-only
 * failure: mode, jar, class, what the plain run and the agent's run said) and DIR/summary.txt.
 * Exit status: 0 when no class fails only under the agent, 1 when some do, 2 on bad usage.
 */
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

public class JarSweep {
  public static void main(String[] args) throws Exception {
    if (args.length >= 3 && args[0].equals("load")) {
      load(Paths.get(args[1]), Integer.parseInt(args[2]));
      return;
    }
    if (args.length >= 1 && args[0].equals("sweep")) {
      System.exit(new JarSweep().sweep(args));
    }
    System.err.println("usage: java JarSweep.java sweep --agent LIB --out DIR [--java JAVA]"
        + " [--jobs N] [--stall S] [--mode NAME=OPTIONS]... (JAR... | --jdk)");
    System.exit(2);
  }

  // ---- the child: load and initialize the listed classes from index START on ----

  static void load(Path list, int start) throws IOException {
    // Under iterations=N main runs N times in one JVM: a system property (JDK state, kept
    // across executions) counts the rounds, and only the last one ends the JVM.
    int round = Integer.getInteger("jsched.sweep.round", 0) + 1;
    System.setProperty("jsched.sweep.round", String.valueOf(round));
    boolean last = round >= Integer.getInteger("jsched.sweep.rounds", 1);
    List<String> names = Files.readAllLines(list, StandardCharsets.UTF_8);
    ClassLoader loader = JarSweep.class.getClassLoader();
    PrintWriter out = new PrintWriter(System.out, true);
    // A thread an initializer started that dies of an exception: said, for the comparison with
    // the agent's run, where it is a bug that ends the JVM (jsched's contract).
    Thread.setDefaultUncaughtExceptionHandler(
        (t, e) -> out.println("UNCAUGHT " + e.getClass().getName()));
    for (int i = start; i < names.size(); ++i) {
      String name = names.get(i);
      out.println("AT " + i);
      String result;
      try {
        Class.forName(name, true, loader);
        result = "OK";
      } catch (Throwable t) {
        result = describe(t);
      }
      out.println(i + " " + result);
    }
    if (!last) return;
    out.println("DONE");
    out.flush();
    // Threads that initializers started must not keep the JVM (or the agent) waiting.
    Runtime.getRuntime().halt(0);
  }

  // The throwable's class and its message's first line: what tells one cause from another.
  static String describe(Throwable t) {
    String m = String.valueOf(t.getMessage());
    int nl = m.indexOf('\n');
    if (nl >= 0) m = m.substring(0, nl);
    if (m.length() > 300) m = m.substring(0, 300);
    return t.getClass().getName() + ": " + m;
  }

  // ---- the driver ----

  String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
  String agent;
  Path out;
  int jobs = 2;
  long stallSeconds = 60;
  boolean jdk;
  final Map<String, String> modes = new LinkedHashMap<>();
  final List<String> jars = new ArrayList<>();
  final AtomicLong classesSeen = new AtomicLong();
  final Map<String, AtomicLong> agentOnly = new TreeMap<>();
  final List<String> failures = Collections.synchronizedList(new ArrayList<>());
  final Map<String, AtomicLong> slowCount = new TreeMap<>();
  final Map<String, AtomicLong> ownUncaughtCount = new TreeMap<>();
  final List<String> slow = Collections.synchronizedList(new ArrayList<>());

  int sweep(String[] args) throws Exception {
    for (int i = 1; i < args.length; ++i) {
      String a = args[i];
      if (a.equals("--jdk")) {
        jdk = true;
      } else if (a.startsWith("--") && i + 1 < args.length) {
        String v = args[++i];
        switch (a) {
          case "--agent": agent = v; break;
          case "--out": out = Paths.get(v); break;
          case "--java": java = v; break;
          case "--jobs": jobs = Integer.parseInt(v); break;
          case "--stall": stallSeconds = Long.parseLong(v); break;
          case "--mode": {
            int eq = v.indexOf('=');
            if (eq <= 0) return usage("--mode NAME=OPTIONS, not " + v);
            modes.put(v.substring(0, eq), v.substring(eq + 1));
            break;
          }
          default: return usage("unknown option " + a);
        }
      } else if (a.startsWith("--")) {
        return usage("option " + a + " needs a value");
      } else {
        jars.add(a);
      }
    }
    if (agent == null || out == null) return usage("--agent and --out are required");
    if (!new File(agent).isFile()) return usage("no agent library at " + agent);
    if (jdk == !jars.isEmpty()) return usage("name jars or --jdk (not both)");
    if (modes.isEmpty()) modes.put("default", "strategy=random");
    for (String m : modes.keySet()) {
      agentOnly.put(m, new AtomicLong());
      slowCount.put(m, new AtomicLong());
      ownUncaughtCount.put(m, new AtomicLong());
    }
    Files.createDirectories(out);
    long t0 = System.nanoTime();
    List<String> targets = jdk ? List.of("jdk") : jars;
    ExecutorService pool = Executors.newFixedThreadPool(jobs);
    List<Future<?>> done = new ArrayList<>();
    for (String target : targets) done.add(pool.submit(() -> { sweepOne(target); return null; }));
    for (Future<?> f : done) f.get();
    pool.shutdown();
    long seconds = (System.nanoTime() - t0) / 1_000_000_000L;
    StringBuilder sum = new StringBuilder();
    sum.append("sweep: ").append(jdk ? "the JDK's modules" : targets.size() + " jars").append(", ")
        .append(classesSeen.get()).append(" classes, modes ").append(modes.keySet())
        .append(", ").append(seconds).append(" s, java ").append(javaVersion()).append('\n');
    long total = 0;
    for (Map.Entry<String, AtomicLong> e : agentOnly.entrySet()) {
      sum.append("  ").append(e.getKey()).append(": ").append(e.getValue().get())
          .append(" classes fail only under the agent; ").append(slowCount.get(e.getKey()).get())
          .append(" still computing after ").append(stallSeconds).append(" s (slow.txt); ")
          .append(ownUncaughtCount.get(e.getKey()).get())
          .append(" where a thread died of the exception it dies of plainly (a bug to jsched)\n");
      total += e.getValue().get();
    }
    System.out.print(sum);
    Files.writeString(out.resolve("summary.txt"), sum.toString());
    List<String> sorted = new ArrayList<>(failures);
    Collections.sort(sorted);
    Files.write(out.resolve("failures.txt"), sorted);
    List<String> slowSorted = new ArrayList<>(slow);
    Collections.sort(slowSorted);
    Files.write(out.resolve("slow.txt"), slowSorted);
    return total == 0 ? 0 : 1;
  }

  static int usage(String why) {
    System.err.println("JarSweep: error: " + why);
    return 2;
  }

  String javaVersion() {
    try {
      Process p = new ProcessBuilder(java, "-version").redirectErrorStream(true).start();
      String first = new BufferedReader(new InputStreamReader(p.getInputStream())).readLine();
      p.waitFor();
      return first == null ? "?" : first.replace('"', ' ').trim();
    } catch (IOException | InterruptedException e) {
      return "?";
    }
  }

  void sweepOne(String target) throws Exception {
    String base = jdk ? "jdk" : new File(target).getName();
    Path dir = Files.createDirectories(out.resolve(base));
    List<String> names = jdk ? jdkClasses() : jarClasses(target);
    Path list = dir.resolve("classes.txt");
    Files.write(list, names);
    classesSeen.addAndGet(names.size());
    String cp = jdk ? classDir() : target + File.pathSeparator + classDir();
    long t0 = System.nanoTime();
    Set<String> plainUncaught = ConcurrentHashMap.newKeySet();
    String[] plain = run(list, names.size(), cp, null, dir.resolve("plain.log"), plainUncaught);
    long plainMs = (System.nanoTime() - t0) / 1_000_000;
    for (Map.Entry<String, String> m : modes.entrySet()) {
      long t1 = System.nanoTime();
      String[] under = run(list, names.size(), cp, m.getValue(), dir.resolve(m.getKey() + ".log"),
          ConcurrentHashMap.newKeySet());
      long ms = (System.nanoTime() - t1) / 1_000_000;
      int only = 0, plainFailed = 0, slowOnly = 0, ownUncaught = 0;
      for (int i = 0; i < names.size(); ++i) {
        if (!plain[i].equals("OK")) ++plainFailed;
        if (under[i].equals("OK") || kind(under[i]).equals(kind(plain[i]))) continue;
        // A thread that died of the same exception on the plain JVM: the program's own failure,
        // which jsched reports as a bug by contract (docs/agent.md, exit status 3).
        if (under[i].startsWith("UNCAUGHT ") && plainUncaught.contains(under[i].substring(9))) {
          ++ownUncaught;
          continue;
        }
        String line = m.getKey() + "\t" + base + "\t" + names.get(i) + "\tplain: " + plain[i]
            + "\tagent: " + under[i];
        // A class still computing after --stall seconds under the agent loaded and verified:
        // slowness (listed apart), not a failure to load.
        if (under[i].equals("SLOW")) {
          ++slowOnly;
          slow.add(line);
          continue;
        }
        ++only;
        failures.add(line);
      }
      agentOnly.get(m.getKey()).addAndGet(only);
      slowCount.get(m.getKey()).addAndGet(slowOnly);
      ownUncaughtCount.get(m.getKey()).addAndGet(ownUncaught);
      System.out.printf("%s %s: %d classes, %d fail plainly, %d only under the agent, %d slow"
              + " (plain %d ms, agent %d ms)%n", base, m.getKey(), names.size(), plainFailed, only,
          slowOnly, plainMs, ms);
    }
  }

  String classDir() {
    // The directory this file's class was compiled into by the launcher is not on disk: the
    // script compiles JarSweep into a directory and passes it as jsched.sweep.classes.
    return System.getProperty("jsched.sweep.classes");
  }

  static List<String> jarClasses(String jar) throws IOException {
    List<String> names = new ArrayList<>();
    try (ZipFile z = new ZipFile(jar)) {
      for (Enumeration<? extends ZipEntry> e = z.entries(); e.hasMoreElements();) {
        String n = e.nextElement().getName();
        if (!n.endsWith(".class") || n.startsWith("META-INF/")) continue;
        if (n.endsWith("module-info.class") || n.endsWith("package-info.class")) continue;
        names.add(n.substring(0, n.length() - 6).replace('/', '.'));
      }
    }
    Collections.sort(names);
    return names;
  }

  static List<String> jdkClasses() throws IOException {
    List<String> names = new ArrayList<>();
    FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
    try (Stream<Path> modules = Files.list(jrt.getPath("/modules"))) {
      for (Path m : (Iterable<Path>) modules::iterator) {
        try (Stream<Path> files = Files.walk(m)) {
          files.forEach(p -> {
            String n = m.relativize(p).toString();
            if (n.endsWith(".class") && !n.endsWith("module-info.class")
                && !n.endsWith("package-info.class"))
              names.add(n.substring(0, n.length() - 6).replace('/', '.'));
          });
        }
      }
    }
    Collections.sort(names);
    return names;
  }

  // Every class's result in one run (plain when options is null), children restarted after a
  // death or a stall until every class has one.
  // `uncaught` collects the exceptions that threads other than the loading one died of.
  String[] run(Path list, int n, String cp, String options, Path log, Set<String> uncaught)
      throws Exception {
    String[] results = new String[n];
    int next = 0;
    try (PrintWriter logOut = new PrintWriter(Files.newBufferedWriter(log))) {
      while (next < n) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        if (options != null) {
          String o = options.replace("{run}",
              log.getParent().getFileName() + "-" + log.getFileName() + "-" + next);
          cmd.add("-agentpath:" + agent + "=" + o);
          Matcher it = Pattern.compile("iterations=(\\d+)").matcher(o);
          if (it.find()) cmd.add("-Djsched.sweep.rounds=" + it.group(1));
        }
        Collections.addAll(cmd, "-Djava.awt.headless=true", "-Xss4m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-cp", cp, "JarSweep", "load", list.toString(),
            String.valueOf(next));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
            .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        int[] at = {next};
        boolean[] finished = {false};
        String[] bug = {null};  // the exception a jsched "BUG ... uncaught" line names
        AtomicLong lastLine = new AtomicLong(System.nanoTime());
        Thread reader = new Thread(() -> {
          try (BufferedReader r = new BufferedReader(
                   new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null;) {
              lastLine.set(System.nanoTime());
              if (line.equals("DONE")) {
                finished[0] = true;
              } else if (line.startsWith("AT ")) {
                at[0] = Integer.parseInt(line.substring(3));
              } else if (line.startsWith("UNCAUGHT ")) {
                uncaught.add(line.substring(9));
              } else {
                Matcher b = BUG_UNCAUGHT.matcher(line);
                if (b.find()) {
                  bug[0] = b.group(1);
                  uncaught.add(b.group(1));
                }
                int sp = line.indexOf(' ');
                int i = sp > 0 ? parseIndex(line.substring(0, sp)) : -1;
                // A later round's failure (iterations) counts over an earlier success.
                if (i >= 0 && i < n && (results[i] == null || results[i].equals("OK"))) {
                  results[i] = line.substring(sp + 1);
                } else {
                  synchronized (logOut) {
                    logOut.println(line);
                  }
                }
              }
            }
          } catch (IOException e) {
            // the child is gone
          }
        });
        reader.start();
        String why = "DIED";
        while (!p.waitFor(1, TimeUnit.SECONDS)) {
          if (System.nanoTime() - lastLine.get() > stallSeconds * 1_000_000_000L) {
            // Busy (a long computation, slower still under the agent) or blocked (a hang)?
            long cpu0 = cpuMillis(p);
            Thread.sleep(5000);
            why = cpuMillis(p) - cpu0 >= 2500 ? "SLOW" : "HUNG";
            p.destroyForcibly().waitFor();
            break;
          }
        }
        reader.join();
        if (finished[0]) break;
        // The class it was at when it died or stalled gets that as its result; go on after it.
        int stuck = at[0];
        for (int i = next; i < stuck && i < n; ++i) {
          if (results[i] == null) results[i] = "DIED";
        }
        if (why.equals("DIED") && p.exitValue() == 3 && bug[0] != null) {
          why = "UNCAUGHT " + bug[0];  // a thread's uncaught exception, reported as a bug
        }
        if (stuck < n && results[stuck] == null) results[stuck] = why;
        logOut.println("-- child " + why + " at class " + stuck + ", exit "
            + p.exitValue());
        next = Math.max(next + 1, stuck + 1);
      }
    }
    for (int i = 0; i < n; ++i) {
      if (results[i] == null) results[i] = "DIED";
    }
    return results;
  }

  static long cpuMillis(Process p) {
    return p.toHandle().info().totalCpuDuration().map(d -> d.toMillis()).orElse(0L);
  }

  // A result's kind: OK, DIED, SLOW, HUNG, or the throwable's class (messages may differ: two
  // runs that load classes in another order miss another dependency first).
  static String kind(String result) {
    int colon = result.indexOf(':');
    return colon < 0 ? result : result.substring(0, colon);
  }

  static final Pattern BUG_UNCAUGHT = Pattern.compile("^jsched: BUG \\(.*\\): uncaught ([\\w.$]+)");

  static int parseIndex(String s) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
