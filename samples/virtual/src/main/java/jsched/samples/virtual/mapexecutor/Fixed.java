/*
 * mapexecutor (correct variant): word counts merged into a ConcurrentHashMap.
 *
 * Same program as Main, but the counts are a ConcurrentHashMap and each word is added with
 * merge(word, 1, Integer::sum), which reads and writes the word's count atomically. Exactly one
 * merge of each word returns 1, and that task bumps the count of distinct words.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "words=14 distinct=7 the=5".
 */
package jsched.samples.virtual.mapexecutor;

import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

public class Fixed {
  static final String[] DOCUMENTS = {
    "The cat sat on the mat", "The dog sat", "The cat and the dog",
  };

  static final ConcurrentHashMap<String, Integer> counts = new ConcurrentHashMap<>();
  static final AtomicInteger distinct = new AtomicInteger();

  static void countWords(String document) {
    for (String word : document.toLowerCase(Locale.ROOT).split(" ")) {
      if (counts.merge(word, 1, Integer::sum) == 1) {
        distinct.incrementAndGet();
      }
    }
  }

  static long loadChecksum;

  /** Loads a document: here a checksum of its text, local work without any synchronization. */
  static String load(String document) {
    long sum = 0;
    for (int i = 0; i < 2_000_000; i++) {
      sum = sum * 31 + document.charAt(i % document.length());
    }
    loadChecksum = sum;
    return document;
  }

  public static void main(String[] args) {
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (String name : DOCUMENTS) {
        String document = load(name);
        executor.execute(() -> countWords(document));
      }
    }
    int words = 0;
    for (String document : DOCUMENTS) {
      words += document.split(" ").length;
    }
    int total = counts.values().stream().mapToInt(Integer::intValue).sum();
    if (total != words || counts.size() != distinct.get()) {
      throw new AssertionError("counted " + total + " words, expected " + words + "; "
          + counts.size() + " distinct words in the map, " + distinct.get() + " counted");
    }
    System.out.println(
        "words=" + total + " distinct=" + distinct.get() + " the=" + counts.get("the"));
  }
}
