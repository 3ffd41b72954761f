/*
 * download: a parallel downloader in the style of aget (paper 004, Table 4): W worker threads
 * fetch the chunks of one file from a shared queue and count the bytes written in one shared
 * counter, while a progress thread reads it.
 *
 * Models: 3 chunks per worker. A worker takes a chunk under the queue's lock, "downloads" it
 * (local work), and adds its length to `written` under the same lock; the progress thread
 * samples `written` under the lock a few times.
 *
 * Bug: as in aget's bwritten, one path updates the counter without the lock: a worker adds the
 * length of its last chunk with a plain `written += n`. A thread switch between that read and
 * that write, with another thread's update of `written` in between, loses the other update.
 *
 * Shows as: main joins every thread and checks written == W * 3 * 1000 -> AssertionError thrown
 * by main (jsched exit status 3). Correct runs print "workers=W written=...".
 *
 * Usage: Main [W] (2 to 10 workers, default 4).
 */
package jsched.samples.download;

public class Main {
  static final int CHUNKS_PER_WORKER = 3;
  static final int CHUNK = 1000;
  static final Object lock = new Object();
  static int nextChunk = 0;
  static int totalChunks;
  static long written = 0;
  static volatile boolean done = false;

  public static void main(String[] args) throws Exception {
    int workers = args.length > 0 ? Integer.parseInt(args[0]) : 4;
    run(workers, false);
  }

  static void run(int workers, boolean fixed) throws Exception {
    totalChunks = workers * CHUNKS_PER_WORKER;
    Thread[] ts = new Thread[workers];
    for (int i = 0; i < workers; i++) {
      ts[i] = new Thread(() -> work(fixed), "worker-" + i);
      ts[i].start();
    }
    Thread progress = new Thread(Main::progress, "progress");
    progress.start();
    for (Thread t : ts) t.join();
    done = true;
    progress.join();
    long expected = (long) totalChunks * CHUNK;
    if (written != expected)
      throw new AssertionError("lost update of written: " + written + " != " + expected);
    System.out.println("workers=" + workers + " written=" + written);
  }

  static void work(boolean fixed) {
    while (true) {
      int chunk;
      synchronized (lock) {
        if (nextChunk == totalChunks) return;
        chunk = nextChunk++;
      }
      int n = download(chunk);
      boolean last;
      synchronized (lock) {
        last = nextChunk == totalChunks;
      }
      if (last && !fixed) {
        written += n; // BUG: no lock on this path
      } else {
        synchronized (lock) {
          written += n;
        }
      }
    }
  }

  static int download(int chunk) {
    int sum = 0;
    for (int i = 0; i < 16; i++) sum += (chunk * 31 + i) & 7;
    return CHUNK + (sum - sum);
  }

  static void progress() {
    long seen = 0;
    for (int i = 0; i < 3 && !done; i++) {
      synchronized (lock) {
        seen = written;
      }
    }
    if (seen < 0) throw new AssertionError("negative progress");
  }
}
