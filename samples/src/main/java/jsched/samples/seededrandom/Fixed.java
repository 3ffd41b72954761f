/*
 * seededrandom (correct variant): the locker is checked and taken in one synchronized call.
 *
 * Same program as Main, with the same unseeded sources of chance (new Random(), ThreadLocalRandom,
 * Math.random(), UUID.randomUUID(), Collections.shuffle without a seed, a HashSet ordered by
 * identity hash codes), but a visitor takes a locker with one synchronized tryTake, which checks
 * and takes together: two visitors that try the same locker at the same time cannot both get it,
 * whatever they drew. Which locker each visitor gets varies from run to run; the line printed
 * does not.
 *
 * Expected jsched outcome: never fails (exit status 0); prints "4 visitors, 4 lockers taken of 6".
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

public class Fixed {
  static final int LOCKERS = 6;

  static class LockerBank {
    private final String[] tickets = new String[LOCKERS];

    /** Takes the locker if it is free; check and take in one call. */
    synchronized boolean tryTake(int locker, String ticket) {
      if (tickets[locker] != null) {
        return false;
      }
      tickets[locker] = ticket;
      return true;
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
        if (bank.tryTake(candidate, ticket.toString())) {
          locker = candidate;
          return;
        }
      }
      throw new IllegalStateException(name + " found no free locker");
    }

    /** Local preparation (a table checksum) without any synchronization. */
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
