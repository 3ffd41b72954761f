package java.lang;

import java.lang.ref.WeakReference;
import jdk.internal.vm.annotation.DontInline;
import jdk.internal.vm.annotation.ForceInline;

/**
 * Which variable an object belongs to, and how often each instruction touched each variable,
 * kept in Java so that an access costs a few instructions rather than a JNI call and a JVMTI tag
 * lookup. A variable is a number: an allocation site's id in profile runs, a tracked slot under
 * PCTVB (docs/strategies.md, pctvb).
 *
 * <p>Two parts. A weak identity table maps an object to its variable; it is filled when an
 * object is allocated at an instrumented site. The instances of this class are its entries (a
 * nested class would be one more class for the agent to define). And per instruction (by site
 * id), the last object it touched and that object's variable: a loop over one array, or over
 * one object's fields, asks the table once. A cached "no variable" is only trusted while no
 * object was added since, because an object touched in its constructor gets its variable only
 * after the constructor returns.
 *
 * <p>Controlled threads run one at a time. Writers of the table also hold a lock against other
 * threads; the per-instruction caches do not: a racing thread may lose a count, but every site
 * id is checked against the arrays' fixed size, so nothing here throws into the program. The table's
 * chains never change once published (growing builds new entries), so a reader never loops.
 */
public final class JSchedVariables extends WeakReference<Object> {
  private final int hash;
  private final int variable;
  private final JSchedVariables next;

  /** Profile runs: the threads that touched the object, a bit per thread (its id mod 64). */
  private long threads;

  private JSchedVariables(Object o, int hash, int variable, JSchedVariables next) {
    super(o);
    this.hash = hash;
    this.variable = variable;
    this.next = next;
  }

  private static final Object LOCK = new Object();
  private static JSchedVariables[] table = new JSchedVariables[1024];
  private static int entries; // in the table, the cleared ones included

  /** Bumped whenever an object gets a variable: cached "no variable" answers are stale. */
  private static int generation;

  /**
   * Sites below this have the per-instruction cache; the arrays are final and of a fixed size
   * so that the JIT folds their loads and bounds checks at an instruction's constant site id.
   * Instructions beyond it (programs with that many instrumented accesses) count through the
   * table at every access.
   */
  static final int SITES = 1 << 16;

  /** Per site: the last object with a variable the instruction touched. */
  static final Object[] LAST = new Object[SITES];

  /** Per site: the last object without one (trusted while the generation stays). */
  private static final Object[] NONE = new Object[SITES];

  /**
   * Per site s: [2s] accesses counted there since LAST's variable came (for a static field's
   * instruction: all its accesses); [2s + 1] LAST's variable, low half, and the generation when
   * NONE was cached, high half.
   */
  static final long[] STATE = new long[2 * SITES];

  static {
    for (int j = 1; j < STATE.length; j += 2) STATE[j] = 0xffffffffL; // no variable
  }

  /**
   * Profile runs, per site: the thread of its last counted access. A thread new at a site takes
   * the slow path once, which records it on the object (or, for a static field's site, in
   * STATIC_THREADS): an object no second thread touched costs nothing more.
   */
  static final Object[] LAST_THREAD = new Object[SITES];

  /** Per static field's site: the threads that ran it, a bit per thread (id mod 64). */
  private static final long[] STATIC_THREADS = new long[SITES];

  /** Variables one of whose objects two threads touched: a bit per variable id. */
  private static long[] shared = new long[64];

  // PCTVB's counters (java-shim JSchedShim.trackedStatic; the agent's VariableTracker reads and
  // sets them): per tracked variable (slot; `vars` is at most 1000), final and of a fixed size
  // for the JIT, as above.

  /** Accesses so far, per slot (counted globally across threads, docs/strategies.md, pctvb). */
  static final long[] jschedCount = new long[1024];

  /** The access number of the slot's next change point (0: none left). */
  static final long[] jschedNextPoint = new long[1024];

  /** A change point happened: the thread is switched out at its next tracked access. */
  static boolean jschedSwitch;

  /**
   * Per site: 1 + the slot of LAST when that slot has no change point left (0: otherwise). Such
   * a slot's accesses at the site are counted in PENDING[site] and added to jschedCount when
   * the site's LAST changes or the agent reads the counts (flushTracked): an access then costs
   * one increment, and only slots whose next change point is still to come pay for the exact
   * count. A slot's next point, once 0, stays 0 (points are consumed in order).
   */
  static final int[] LAZY = new int[SITES];

  /** Per site: accesses to LAZY's slot not yet in jschedCount. */
  static final long[] PENDING = new long[SITES];

  /** Profile runs: accesses per (site << 32 | variable) of the runs already ended, open addressing. */
  private static long[] pairKey = new long[256];

  private static long[] pairCount = new long[256];
  private static int pairs;

  /** The variable of o, or -1. */
  static int variableOf(Object o) {
    JSchedVariables e = entryOf(o);
    return e == null ? -1 : e.variable;
  }

  private static JSchedVariables entryOf(Object o) {
    if (o == null) return null;
    JSchedVariables[] t = table;
    int h = System.identityHashCode(o);
    for (JSchedVariables e = t[h & (t.length - 1)]; e != null; e = e.next) {
      if (e.hash == h && e.refersTo(o)) return e;
    }
    return null;
  }

  @SuppressWarnings("deprecation") // threadId() is JDK 19+; getId() is the same number
  private static long threadBit(Thread t) {
    return 1L << (t.getId() & 63);
  }

  /** Profile runs: thread t touched e's object (of `variable`) at some site. */
  private static void touchedBy(JSchedVariables e, int variable, Thread t) {
    long bit = threadBit(t);
    long before = e.threads;
    if ((before & bit) != 0) return;
    e.threads = before | bit;
    if (before != 0 && variable >= 0) markShared(variable);
  }

  private static void markShared(int variable) {
    synchronized (LOCK) {
      long[] s = shared;
      if ((variable >>> 6) >= s.length) {
        s = java.util.Arrays.copyOf(s, Math.max(2 * s.length, (variable >>> 6) + 1));
        shared = s;
      }
      s[variable >>> 6] |= 1L << (variable & 63);
    }
  }

  /** o belongs to `variable` from now on. */
  static void put(Object o, int variable) {
    if (o == null) return;
    int h = System.identityHashCode(o);
    synchronized (LOCK) {
      JSchedVariables[] t = table;
      if (entries >= t.length - (t.length >> 2)) t = rebuild(t);
      int b = h & (t.length - 1);
      t[b] = new JSchedVariables(o, h, variable, t[b]);
      entries++;
      generation++;
    }
  }

  /** Objects' variables may have changed (an exclusive type became known). */
  static void invalidate() {
    generation++;
  }

  /** Drops the entries of collected objects, and doubles the table if it stays three quarters full. */
  private static JSchedVariables[] rebuild(JSchedVariables[] t) {
    int live = 0;
    for (JSchedVariables c : t) {
      for (JSchedVariables e = c; e != null; e = e.next) {
        if (!e.refersTo(null)) live++;
      }
    }
    int n = t.length;
    while (live >= n >> 1) n <<= 1;
    JSchedVariables[] fresh = new JSchedVariables[n];
    for (JSchedVariables c : t) {
      for (JSchedVariables e = c; e != null; e = e.next) {
        Object o = e.get();
        if (o == null) continue;
        int b = e.hash & (n - 1);
        fresh[b] = new JSchedVariables(o, e.hash, e.variable, fresh[b]);
      }
    }
    entries = live;
    table = fresh;
    return fresh;
  }

  /** The variable of o as instruction `site` last saw it (-1: none), or -2 when it has not. */
  @ForceInline
  static int cached(Object o, int site) {
    if (site <= 0 || site >= SITES) return -2;
    if (LAST[site] == o) return (int) STATE[2 * site + 1];
    if (NONE[site] == o && (int) (STATE[2 * site + 1] >>> 32) == generation) return -1;
    return -2;
  }

  /** Caches o's variable for instruction `site`; returns it. */
  static int remember(Object o, int site, int variable) {
    if (site <= 0 || site >= SITES) return variable;
    int i = 2 * site + 1;
    if (variable < 0) {
      NONE[site] = o;
      STATE[i] = ((long) generation << 32) | (STATE[i] & 0xffffffffL);
    } else {
      LAST[site] = o;
      STATE[i] = (STATE[i] & ~0xffffffffL) | variable;
    }
    return variable;
  }

  /** PCTVB: as remember, and o's slot is counted lazily at `site` if it can be (LAZY). */
  static int rememberTracked(Object o, int site, int slot) {
    if (site <= 0 || site >= SITES) return slot;
    if (slot >= 0) {
      flushSite(site);
      LAZY[site] = slot < jschedNextPoint.length && jschedNextPoint[slot] == 0 ? slot + 1 : 0;
    }
    return remember(o, site, slot);
  }

  private static void flushSite(int site) {
    int lazy = LAZY[site] - 1;
    if (lazy >= 0 && PENDING[site] != 0) {
      jschedCount[lazy] += PENDING[site];
      PENDING[site] = 0;
    }
  }

  /** PCTVB: every site's pending counts into jschedCount (the agent calls this before reading). */
  static void flushTracked() {
    for (int s = 1; s < SITES; s++) flushSite(s);
  }

  /**
   * Per site: the misses countMiss took in full. Past SAMPLED_AFTER, only one miss in
   * SAMPLE_EVERY is: the others count for the site's last variable (if it has met one). A heavy program's hot
   * instruction (a loop over a tree's nodes) misses at nearly every access, and looking each
   * object up made a profile run several plain runs long; a site's objects are nearly always of
   * one variable, and an object two threads share is met again in the sampled misses. (An odd
   * stride: objects of two variables in turn still land on both.)
   */
  private static final int[] MISSES = new int[SITES];

  private static final int SAMPLED_AFTER = 256, SAMPLE_EVERY = 17;

  /** Profile runs: an access whose instruction's cache missed (JSchedShim.countObject). */
  @DontInline // out of line, as JSchedShim.jschedSlotMiss
  static void countMiss(Object o, int site) {
    if (o == null || site <= 0) return;
    if (site < SITES) {
      int m = MISSES[site];
      MISSES[site] = m + 1;
      if (m >= SAMPLED_AFTER && m % SAMPLE_EVERY != 0) {
        if (LAST[site] != null) STATE[2 * site]++;
        return;
      }
    }
    int now = cached(o, site);
    if (now == -1) return;
    Thread t = Thread.currentThread();
    JSchedVariables e = entryOf(o);
    if (now == -2) now = e == null ? -1 : e.variable;
    if (e != null && now >= 0) touchedBy(e, now, t);
    if (site >= SITES) {
      if (now >= 0) addPair(site, now, 1);
      return;
    }
    LAST_THREAD[site] = t;
    if (LAST[site] == o && now >= 0) { // the same object, another thread
      STATE[2 * site]++;
      return;
    }
    int v = (int) STATE[2 * site + 1];
    if (now >= 0 && LAST[site] != null && v != now && STATE[2 * site] > 0) {
      addPair(site, v, STATE[2 * site]);
      STATE[2 * site] = 0;
    }
    // Another object of the same variable (a row of the same matrix) goes on counting.
    remember(o, site, now);
    if (now >= 0) STATE[2 * site]++;
  }

  /** Profile runs: an access to a static field at instruction `site`. */
  static void countStatic(int site) {
    if (site > 0 && site < SITES) {
      STATE[2 * site]++;
      Thread t = Thread.currentThread();
      if (LAST_THREAD[site] != t) {
        LAST_THREAD[site] = t;
        STATIC_THREADS[site] |= threadBit(t);
      }
    } else if (site > 0) {
      addPair(site, -1, 1);
    }
  }

  /**
   * Profile runs, at the end: which variables more than one thread touched. The variables one
   * of whose objects two threads touched, as {variable, -1}; then each static field site's
   * threads, as {site, bit mask} (the agent joins a field's sites).
   */
  static long[] sharing() {
    synchronized (LOCK) {
      long[] out = new long[64];
      int n = 0;
      for (int w = 0; w < shared.length; w++) {
        for (long bits = shared[w]; bits != 0; bits &= bits - 1) {
          if (n + 2 > out.length) out = java.util.Arrays.copyOf(out, 2 * out.length);
          out[n++] = 64L * w + Long.numberOfTrailingZeros(bits);
          out[n++] = -1;
        }
      }
      for (int s = 1; s < SITES; s++) {
        if (STATIC_THREADS[s] == 0) continue;
        if (n + 2 > out.length) out = java.util.Arrays.copyOf(out, 2 * out.length);
        out[n++] = s;
        out[n++] = STATIC_THREADS[s];
      }
      return java.util.Arrays.copyOf(out, n);
    }
  }

  private static void addPair(int site, int variable, long n) {
    synchronized (LOCK) {
      if (pairs >= pairKey.length >> 1) {
        long[] k = pairKey;
        long[] c = pairCount;
        pairKey = new long[k.length << 1];
        pairCount = new long[k.length << 1];
        pairs = 0;
        for (int j = 0; j < k.length; j++) {
          if (k[j] != 0) addPairLocked(k[j], c[j]);
        }
      }
      addPairLocked(((long) site << 32) | (variable & 0xffffffffL), n);
    }
  }

  private static void addPairLocked(long key, long n) {
    long[] k = pairKey;
    int mask = k.length - 1;
    int j = (int) (key ^ (key >>> 29)) * 0x9E3779B9 & mask;
    while (k[j] != 0 && k[j] != key) j = (j + 1) & mask;
    if (k[j] == 0) {
      k[j] = key;
      pairs++;
    }
    pairCount[j] += n;
  }

  /**
   * Profile runs, at the end: triples (site, variable, accesses). For an object access site the
   * accesses to one variable; for a static field's site, variable -1 and all its accesses.
   */
  static long[] counts() {
    synchronized (LOCK) {
      long[] st = STATE;
      for (int s = 1; s < SITES; s++) {
        int v = (int) st[2 * s + 1];
        if (LAST[s] != null) {
          if (v >= 0 && st[2 * s] > 0) addPair(s, v, st[2 * s]);
          st[2 * s] = 0;
          LAST[s] = null;
        }
      }
      long[] out = new long[3 * (pairs + st.length / 2)];
      int n = 0;
      for (int j = 0; j < pairKey.length; j++) {
        if (pairKey[j] == 0) continue;
        out[n++] = pairKey[j] >>> 32;
        out[n++] = (int) pairKey[j];
        out[n++] = pairCount[j];
      }
      for (int s = 1; 2 * s < st.length; s++) {
        if (st[2 * s] == 0) continue;
        out[n++] = s;
        out[n++] = -1;
        out[n++] = st[2 * s];
      }
      return java.util.Arrays.copyOf(out, n);
    }
  }
}
