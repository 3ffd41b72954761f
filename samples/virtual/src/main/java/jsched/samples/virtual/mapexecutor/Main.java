/*
 * mapexecutor: word counts in a plain HashMap, updated by the tasks of a virtual-thread executor.
 *
 * Models: a word-frequency job. Main loads three documents one after the other and hands each to
 * a task of an Executors.newVirtualThreadPerTaskExecutor() (closed by try-with-resources, which
 * waits for the tasks). Every task adds its words to a shared HashMap<String, Integer>: it gets
 * the word's count and puts count + 1, and when the word is new it also bumps a shared
 * AtomicInteger of distinct words. Main then checks that the counts add up to the number of words
 * and that the map has as many entries as distinct words were counted.
 *
 * Bug: get-then-put on a map shared by several threads is not atomic (the AtomicInteger beside it
 * makes nothing atomic but itself). When the scheduler switches threads after a task has found a
 * word missing (at its incrementAndGet) and another task then counts the same word, both put 1:
 * one occurrence is lost and the word is counted as distinct twice. (Outside jsched, concurrent
 * puts can even corrupt the HashMap itself.)
 *
 * Shows as: bug, an AssertionError "counted 13 words, expected 14 ..." thrown by main (jsched exit
 * status 3). Correct runs print "words=14 distinct=7 the=5". (Loading a document is local work
 * without any synchronization, so in plain runs each task has counted its few words before the
 * next one starts.)
 */
package jsched.samples.virtual.mapexecutor;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

public class Main {
  static final String[] DOCUMENTS = {
    "The cat sat on the mat", "The dog sat", "The cat and the dog",
  };

  static final Map<String, Integer> counts = new HashMap<>();
  static final AtomicInteger distinct = new AtomicInteger();

  static void countWords(String document) {
    for (String word : document.toLowerCase(Locale.ROOT).split(" ")) {
      // BUG: get, then put, on a plain HashMap that the other tasks update too.
      Integer seen = counts.get(word);
      if (seen == null) {
        distinct.incrementAndGet();
        counts.put(word, 1);
      } else {
        counts.put(word, seen + 1);
      }
    }
  }

  static long loadChecksum;

  /**
   * Loads a document: here a checksum of its text, local work without any synchronization,
   * invisible to jsched, but in plain runs it starts the tasks some time apart.
   */
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
