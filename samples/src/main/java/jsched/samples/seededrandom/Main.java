/*
 * seededrandom: a race that only matters when two random choices collide.
 *
 * Models: a bank of 6 lockers and 4 visitors (main and three threads), each with a ticket drawn by
 * UUID.randomUUID(). A visitor tries its preferred locker first and then the others, in an order
 * drawn with Collections.shuffle (no seed), and takes the first free one. Each visitor draws its
 * preferred locker from a different unseeded source: new Random(), ThreadLocalRandom,
 * Math.random(), and (main) the low bits of its UUID. Main keeps the visitors in a HashSet (the
 * visitor class does not override hashCode, so the order is that of identity hash codes) and
 * starts the three threads in that order, then visits itself. The threads first do some local
 * computation, each a different amount.
 *
 * Bug: a visitor asks whether a locker is free (isFree) and then takes it (take) in two
 * synchronized calls. If two visitors try the same locker and the scheduler switches threads
 * between one visitor's check and its take, both find it free and both take it; the second
 * overwrites the first's ticket. The race needs both a schedule and values: two visitors must try
 * the same locker at the same time, which depends on the random draws (with 6 lockers, two of the
 * four preferred lockers coincide in about 72% of runs; later choices can collide too). To replay
 * a failing run, a scheduler must control these sources of chance as well as the threads.
 *
 * Shows as: main finds a visitor whose locker holds another visitor's ticket -> AssertionError
 * thrown by main (jsched exit status 3). Correct runs print "4 visitors, 4 lockers taken of 6".
 */
package jsched.samples.seededrandom;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

public class Main {
  static final int LOCKERS = 6;

  static class LockerBank {
    private final String[] tickets = new String[LOCKERS];

    synchronized boolean isFree(int locker) {
      return tickets[locker] == null;
    }

    synchronized void take(int locker, String ticket) {
      tickets[locker] = ticket;
    }

    synchronized String ticketIn(int locker) {
      return tickets[locker];
    }

    synchronized int taken() {
      int taken = 0;
      for (String ticket : tickets) {
        if (ticket != null) {
          taken++;
        }
      }
      return taken;
    }
  }

  /** Where a visitor's preferred locker comes from. */
  enum Source {
    RANDOM,
    THREAD_LOCAL_RANDOM,
    MATH_RANDOM,
    UUID_BITS
  }

  /** A visitor; does not override equals/hashCode (identity), so a HashSet orders by identity. */
  static class Visitor implements Runnable {
    private final String name;
    private final LockerBank bank;
    private final Source source;
    private final int warmUpRounds;
    private final UUID ticket = UUID.randomUUID();
    private int locker = -1;
    private long setupChecksum;

    Visitor(String name, LockerBank bank, Source source, int warmUpRounds) {
      this.name = name;
      this.bank = bank;
      this.source = source;
      this.warmUpRounds = warmUpRounds;
    }

    private int preferredLocker() {
      switch (source) {
        case RANDOM:
          return new Random().nextInt(LOCKERS);
        case THREAD_LOCAL_RANDOM:
          return ThreadLocalRandom.current().nextInt(LOCKERS);
        case MATH_RANDOM:
          return (int) (Math.random() * LOCKERS);
        default:
          return (int) Math.floorMod(ticket.getLeastSignificantBits(), (long) LOCKERS);
      }
    }

    @Override
    public void run() {
      int preferred = preferredLocker();
      List<Integer> others = new ArrayList<>();
      for (int i = 0; i < LOCKERS; i++) {
        if (i != preferred) {
          others.add(i);
        }
      }
      Collections.shuffle(others);
      List<Integer> order = new ArrayList<>();
      order.add(preferred);
      order.addAll(others);
      setUp();
      for (int candidate : order) {
        // BUG: check and take are two synchronized calls.
        if (bank.isFree(candidate)) {
          bank.take(candidate, ticket.toString());
          locker = candidate;
          return;
        }
      }
      throw new IllegalStateException(name + " found no free locker");
    }

    /**
     * Local preparation (a table checksum) without any synchronization: invisible to jsched, but in
     * plain runs it keeps the visitors' turns at the bank apart.
     */
    private void setUp() {
      long sum = 0;
      final int rounds = warmUpRounds;  // a local: the loop reads no field (accesses=all)
      for (int i = 0; i < rounds; i++) {
        sum = sum * 31 + i;
      }
      setupChecksum = sum;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    LockerBank bank = new LockerBank();
    Visitor mainVisitor = new Visitor("main", bank, Source.UUID_BITS, 0);
    Set<Visitor> visitors = new HashSet<>();
    visitors.add(new Visitor("visitor-random", bank, Source.RANDOM, 200_000));
    visitors.add(new Visitor("visitor-tlr", bank, Source.THREAD_LOCAL_RANDOM, 500_000));
    visitors.add(new Visitor("visitor-math", bank, Source.MATH_RANDOM, 800_000));
    List<Thread> threads = new ArrayList<>();
    for (Visitor visitor : visitors) { // in identity-hash order
      Thread thread = new Thread(visitor, visitor.name);
      threads.add(thread);
      thread.start();
    }
    mainVisitor.run();
    for (Thread thread : threads) {
      thread.join();
    }
    visitors.add(mainVisitor);
    for (Visitor visitor : visitors) {
      String found = bank.ticketIn(visitor.locker);
      if (!visitor.ticket.toString().equals(found)) {
        throw new AssertionError(
            visitor.name + "'s locker " + visitor.locker + " holds ticket " + found);
      }
    }
    System.out.println(
        visitors.size() + " visitors, " + bank.taken() + " lockers taken of " + LOCKERS);
  }
}
