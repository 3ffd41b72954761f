/*
 * download: a parallel downloader in the style of aget (Wang et al.'s HaPSet paper, Table 4; see
 * docs/references.md): W worker threads
 * fetch the chunks of one file from a shared queue and count the bytes written in one shared
 * counter, while a progress thread reads it.
 *
 * Models: 3 chunks per worker. A worker takes a chunk under the queue's lock, "downloads" it
 * (local work) and counts its bytes; when the queue is empty it adds its count to `written`
 * under the same lock. The progress thread samples `written` under the lock a few times.
 *
 * Bug: as in aget's bwritten, one path updates the counter without the lock: the worker that
 * fetches the file's last chunk adds its length at once, with a plain `written += n`. Another
 * worker's final update of `written` between that read and that write is lost.
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
  static volatile long written = 0; // volatile: a point under every strategy; the race stays
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
    long mine = 0;
    while (true) {
      int chunk;
      synchronized (lock) {
        if (nextChunk == totalChunks) break;
        chunk = nextChunk++;
      }
      int n = download(chunk);
      if (chunk == totalChunks - 1 && !fixed) {
        written += n; // BUG: no lock on this path
      } else {
        mine += n;
      }
    }
    synchronized (lock) {
      written += mine;
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
