// LuceneIndex: a search index built by a few threads while its segments merge concurrently
// (Lucene 8.7, Debian's lucene-core-8.7.0.jar), a fixed program of the heavy set
// (bench/heavy_programs.sh).
//
// What it does: 3 indexing threads share one IndexWriter over an in-memory directory; each adds
// N documents (default 150: an id, a body of words, the writer's number) and replaces every
// tenth it added before (updateDocument by id), while a fourth thread opens near-real-time
// readers from the writer and searches them. The writer flushes a segment every 20 documents
// and its merge policy merges two segments at once, so ConcurrentMergeScheduler's merge threads
// run throughout; at the end main commits, merges the index down to one segment and searches
// it.
//
// What it checks: the committed index holds every document exactly once (3 * N, each id found
// once, each writer's documents all there, the replaced ones in their new version only); each
// near-real-time reader sees no more documents than were added and never fewer than an earlier
// reader did. Any other outcome throws an AssertionError from main: a real bug in Lucene (or a
// wrong verdict of the tool running it).
//
// Why it is realistic: this is how applications index: one IndexWriter shared by worker
// threads, segments flushed and merged in the background, searches on near-real-time readers
// while the index grows (Lucene's DocumentsWriter flush control, its merge scheduler's threads
// and stalls, its reader pooling doing all the synchronization).
//
//   java -cp /usr/share/java/lucene-core-8.7.0.jar:OUT LuceneIndex [DOCS_PER_THREAD]
import java.util.concurrent.atomic.AtomicReference;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.ConcurrentMergeScheduler;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

public class LuceneIndex {
  static final int THREADS = 3;
  static final String[] WORDS = {"merge", "segment", "thread", "index", "search", "flush",
      "reader", "writer", "term", "query", "score", "field"};

  public static void main(String[] args) throws Exception {
    final int n = args.length > 0 ? Integer.parseInt(args[0]) : 150;
    ByteBuffersDirectory dir = new ByteBuffersDirectory();
    IndexWriterConfig config = new IndexWriterConfig(new StandardAnalyzer());
    config.setMaxBufferedDocs(20);
    config.setRAMBufferSizeMB(IndexWriterConfig.DISABLE_AUTO_FLUSH);
    TieredMergePolicy policy = new TieredMergePolicy();
    policy.setSegmentsPerTier(2);
    policy.setMaxMergeAtOnce(2);
    policy.setFloorSegmentMB(0.01);
    config.setMergePolicy(policy);
    ConcurrentMergeScheduler merges = new ConcurrentMergeScheduler();
    merges.setMaxMergesAndThreads(4, 2);
    config.setMergeScheduler(merges);
    final IndexWriter writer = new IndexWriter(dir, config);
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final int total = THREADS * n;

    Thread[] writers = new Thread[THREADS];
    for (int t = 0; t < THREADS; t++) {
      final int w = t;
      writers[t] = new Thread(() -> {
        try {
          for (int i = 0; i < n; i++) {
            writer.addDocument(doc(w, i, 1));
            if (i % 10 == 9) {
              int j = i - 5;
              writer.updateDocument(new Term("id", w + "-" + j), doc(w, j, 2));
            }
          }
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
        }
      }, "indexer-" + t);
    }
    Thread searcher = new Thread(() -> {
      try {
        int seen = 0;
        for (int round = 0; round < 6; round++) {
          try (DirectoryReader r = DirectoryReader.open(writer)) {
            int docs = r.numDocs();
            if (docs > total) throw new AssertionError(docs + " documents, only " + total + " added");
            if (docs < seen) throw new AssertionError(docs + " documents after " + seen + " were seen");
            seen = docs;
            new IndexSearcher(r).count(new TermQuery(new Term("body", WORDS[round])));
          }
          Thread.sleep(5);
        }
      } catch (Throwable e) {
        failure.compareAndSet(null, e);
      }
    }, "searcher");
    for (Thread t : writers) t.start();
    searcher.start();
    for (Thread t : writers) t.join();
    searcher.join();
    if (failure.get() != null) throw new AssertionError("a worker failed", failure.get());

    writer.commit();
    writer.forceMerge(1);
    writer.close();
    try (DirectoryReader r = DirectoryReader.open(dir)) {
      IndexSearcher s = new IndexSearcher(r);
      if (r.numDocs() != total)
        throw new AssertionError(r.numDocs() + " documents in the index, " + total + " added");
      for (int w = 0; w < THREADS; w++) {
        int mine = s.count(new TermQuery(new Term("writer", "w" + w)));
        if (mine != n) throw new AssertionError("writer " + w + ": " + mine + " documents of " + n);
        for (int i = 0; i < n; i++) {
          int hits = s.count(new TermQuery(new Term("id", w + "-" + i)));
          if (hits != 1) throw new AssertionError("id " + w + "-" + i + ": " + hits + " documents");
        }
      }
      int replaced = s.count(new TermQuery(new Term("version", "2")));
      if (replaced != THREADS * (n / 10))
        throw new AssertionError(replaced + " replaced documents, " + THREADS * (n / 10) + " expected");
      System.out.println("LuceneIndex: " + total + " documents in " + r.leaves().size()
          + " segment(s), " + replaced + " replaced, every one found once");
    }
  }

  static Document doc(int writer, int i, int version) {
    Document d = new Document();
    d.add(new StringField("id", writer + "-" + i, Field.Store.YES));
    d.add(new StringField("writer", "w" + writer, Field.Store.NO));
    d.add(new StringField("version", Integer.toString(version), Field.Store.NO));
    StringBuilder body = new StringBuilder();
    for (int k = 0; k < 8; k++) body.append(WORDS[(writer * 7 + i * 3 + k * 5) % WORDS.length]).append(' ');
    d.add(new TextField("body", body.toString(), Field.Store.NO));
    return d;
  }
}
