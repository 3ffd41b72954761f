/*
 * tsp: travelling salesman by parallel branch and bound (workload for overhead measurements).
 *
 * Models: the multithreaded "tsp" benchmark (von Praun and Gross) used in many race-detection and
 * scheduling papers. Cities are points of a deterministic pseudo-random instance with rounded
 * Euclidean distances. Main fills a shared work queue with every tour prefix 0, a, b, c and
 * seeds the shared best tour with the nearest-neighbour tour. Three workers take prefixes from
 * the queue (synchronized), read the current best length (synchronized) and complete the prefix
 * by depth-first search, nearest cities first, pruning with a lower bound (every city still to
 * be visited has two tour edges, at least its two cheapest ones). A shorter complete tour is
 * offered to the shared best under its lock. The optimal length does not depend on the schedule
 * (only the amount of pruning does), and only the length is printed.
 *
 * Shared variables: hot — the statics `dist` (distance matrix), `nearest` (neighbour lists),
 * `cheapest` and `twoCheapest` (cheapest edges per city) and the arrays they hold (read at every
 * one of some 30 million search nodes); lukewarm — the queue's `next` index and prefix arrays and
 * the best length (once per work item, a few thousand times, under locks); rare — the best tour
 * array and its update counter (written a handful of times) and the static configuration `cities`
 * (read once per worker).
 *
 * A correct program (no bug), used to measure jsched's overhead: about two monitor enters per
 * work item, some ten thousand synchronization operations in all. Prints "tsp: result <optimal
 * length> (<N> cities, 3 threads)". With -ea main checks that the best tour is a permutation of
 * the cities whose length is the printed one, that it is no longer than the nearest-neighbour
 * tour and, for 10 to 18 cities, that it is the known optimum (Held-Karp). Optional argument:
 * number of cities (default 16).
 */
package jsched.samples.tsp;

import java.util.Arrays;

public class Main {
  static final int THREADS = 3;
  /** Optimal tour lengths of the instances with 10 to 18 cities (computed by Held-Karp). */
  static final int[] KNOWN_OPTIMA = {3035, 3066, 3075, 3306, 3340, 3379, 3400, 3485, 3533};
  static int cities;
  static int[][] dist;
  static int[][] nearest;
  static int[] cheapest;
  static int[] twoCheapest;

  /** The shortest tour found so far. */
  static final class Best {
    private int length;
    private int[] tour;
    private int updates;

    Best(int[] tour, int length) {
      this.tour = tour.clone();
      this.length = length;
    }

    synchronized int length() {
      return length;
    }

    /** Takes the tour if it is shorter; returns the best length afterwards. */
    synchronized int offer(int[] candidate, int candidateLength) {
      if (candidateLength < length) {
        length = candidateLength;
        tour = candidate.clone();
        updates++;
      }
      return length;
    }
  }

  /** Tour prefixes still to be searched. */
  static final class WorkQueue {
    private final int[][] prefixes;
    private int next;

    WorkQueue(int[][] prefixes) {
      this.prefixes = prefixes;
    }

    synchronized int[] take() {
      return next < prefixes.length ? prefixes[next++] : null;
    }
  }

  static final class Worker extends Thread {
    private final WorkQueue queue;
    private final Best best;
    private int[] path;
    private boolean[] visited;
    private int bound;

    Worker(int index, WorkQueue queue, Best best) {
      super("worker-" + index);
      this.queue = queue;
      this.best = best;
    }

    @Override
    public void run() {
      int n = cities;
      path = new int[n];
      visited = new boolean[n];
      for (int[] prefix = queue.take(); prefix != null; prefix = queue.take()) {
        Arrays.fill(visited, false);
        int length = 0;
        int left = 0; // sum of twoCheapest[c] over the cities not yet visited
        for (int c = 0; c < n; c++) {
          left += twoCheapest[c];
        }
        for (int i = 0; i < prefix.length; i++) {
          path[i] = prefix[i];
          visited[prefix[i]] = true;
          left -= twoCheapest[prefix[i]];
          if (i > 0) {
            length += dist[prefix[i - 1]][prefix[i]];
          }
        }
        bound = best.length();
        search(prefix.length, length, left);
      }
    }

    /** path[0..depth) is fixed, of the given length; left = sum of twoCheapest over unvisited. */
    private void search(int depth, int length, int left) {
      int city = path[depth - 1];
      if (depth == path.length) {
        int total = length + dist[city][0];
        if (total < bound) {
          bound = best.offer(path, total);
        }
        return;
      }
      // Lower bound on the rest of the tour, doubled: every unvisited city still has two tour
      // edges, the current city and city 0 one each. Tour lengths are integers.
      if (2 * length + cheapest[city] + cheapest[0] + left >= 2 * bound - 1) {
        return;
      }
      for (int next : nearest[city]) {
        if (!visited[next]) {
          visited[next] = true;
          path[depth] = next;
          search(depth + 1, length + dist[city][next], left - twoCheapest[next]);
          visited[next] = false;
        }
      }
    }
  }

  /** Rounded Euclidean distances between points of a fixed pseudo-random instance. */
  static void makeInstance(int n) {
    cities = n;
    int[] px = new int[n];
    int[] py = new int[n];
    long state = 0x6A09E667F3BCC909L;
    for (int i = 0; i < n; i++) {
      state = state * 6364136223846793005L + 1442695040888963407L;
      px[i] = (int) ((state >>> 33) % 1000);
      state = state * 6364136223846793005L + 1442695040888963407L;
      py[i] = (int) ((state >>> 33) % 1000);
    }
    dist = new int[n][n];
    nearest = new int[n][];
    cheapest = new int[n];
    twoCheapest = new int[n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        dist[i][j] = (int) Math.round(Math.hypot(px[i] - px[j], py[i] - py[j]));
      }
      // Other cities by distance (ties by index): insertion sort.
      int[] order = new int[n - 1];
      int k = 0;
      for (int j = 0; j < n; j++) {
        if (j == i) {
          continue;
        }
        int m = k++;
        while (m > 0 && dist[i][order[m - 1]] > dist[i][j]) {
          order[m] = order[m - 1];
          m--;
        }
        order[m] = j;
      }
      nearest[i] = order;
      cheapest[i] = dist[i][order[0]];
      twoCheapest[i] = dist[i][order[0]] + dist[i][order[1]];
    }
  }

  static int tourLength(int[] tour) {
    int length = 0;
    for (int i = 0; i < tour.length; i++) {
      length += dist[tour[i]][tour[(i + 1) % tour.length]];
    }
    return length;
  }

  public static void main(String[] args) throws InterruptedException {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 16;
    if (n < 5) {
      throw new IllegalArgumentException("need at least 5 cities");
    }
    makeInstance(n);
    int[] greedy = new int[n];
    boolean[] used = new boolean[n];
    used[0] = true;
    for (int i = 1; i < n; i++) {
      for (int c : nearest[greedy[i - 1]]) {
        if (!used[c]) {
          greedy[i] = c;
          used[c] = true;
          break;
        }
      }
    }
    int greedyLength = tourLength(greedy);
    int[][] prefixes = new int[(n - 1) * (n - 2) * (n - 3)][];
    int count = 0;
    for (int a : nearest[0]) {
      for (int b : nearest[a]) {
        for (int c : nearest[b]) {
          if (b != 0 && c != 0 && c != a) {
            prefixes[count++] = new int[] {0, a, b, c};
          }
        }
      }
    }
    WorkQueue queue = new WorkQueue(prefixes);
    Best best = new Best(greedy, greedyLength);
    Worker[] workers = new Worker[THREADS];
    for (int i = 0; i < THREADS; i++) {
      workers[i] = new Worker(i, queue, best);
      workers[i].start();
    }
    for (Worker w : workers) {
      w.join();
    }
    int[] tour = best.tour;
    boolean[] seen = new boolean[n];
    for (int c : tour) {
      assert !seen[c] : "city " + c + " visited twice";
      seen[c] = true;
    }
    assert count == prefixes.length && queue.next == count : "work items lost";
    assert tourLength(tour) == best.length
        : "tour length " + tourLength(tour) + " != " + best.length;
    assert best.length <= greedyLength : "worse than the nearest-neighbour tour";
    assert n < 10 || n > 18 || best.length == KNOWN_OPTIMA[n - 10]
        : "optimum is " + KNOWN_OPTIMA[n - 10] + ", found " + best.length;
    System.out.println(
        "tsp: result " + best.length + " (" + n + " cities, " + THREADS + " threads)");
  }
}
