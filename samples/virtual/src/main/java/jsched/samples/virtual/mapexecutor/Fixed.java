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

  static class CountTask implements Runnable {
    private final String document;
    private long prepareChecksum;

    CountTask(String document) {
      this.document = document;
    }

    @Override
    public void run() {
      prepare();
      for (String word : document.toLowerCase(Locale.ROOT).split(" ")) {
        if (counts.merge(word, 1, Integer::sum) == 1) {
          distinct.incrementAndGet();
        }
      }
    }

    /** Local preparation (a checksum of the text) without any synchronization. */
    private void prepare() {
      long sum = 0;
      for (int i = 0; i < 20_000 * document.length(); i++) {
        sum = sum * 31 + document.charAt(i % document.length());
      }
      prepareChecksum = sum;
    }
  }

  public static void main(String[] args) {
    try (ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor()) {
      for (String document : DOCUMENTS) {
        executor.execute(new CountTask(document));
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
