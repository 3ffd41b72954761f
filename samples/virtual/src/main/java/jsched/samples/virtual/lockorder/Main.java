/*
 * lockorder: two virtual threads that take the same two monitors in opposite orders.
 *
 * Models: a chat server with rooms, each guarded by its own monitor (synchronized on the room).
 * Moving a member from one room to another locks the room the member leaves, then the room they
 * join, so that nobody sees the member in both rooms or in neither. Two moderators, each a
 * virtual thread (Thread.startVirtualThread), move one member each: moderator 1 moves alice from
 * lobby to games, moderator 2 moves bob from games to lobby. Main joins both and checks the rooms.
 *
 * Bug: lock-order inversion. Moderator 1 locks lobby then games, moderator 2 locks games then
 * lobby. When the scheduler switches threads after moderator 1 has entered lobby's monitor and
 * before it enters games', and moderator 2 then enters games', each holds the monitor the other
 * one needs.
 *
 * Shows as: deadlock, both moderators blocked entering a monitor and main blocked in join (jsched
 * exit status 4). Correct runs print "lobby=[bob, carol] games=[alice, dave]". (Moderator 2 first
 * checks its member's name without any synchronization, so plain runs practically never
 * deadlock.)
 */
package jsched.samples.virtual.lockorder;

import java.util.Set;
import java.util.TreeSet;

public class Main {
  static class Room {
    private final Set<String> members = new TreeSet<>(); // guarded by this

    Room(String... members) {
      this.members.addAll(Set.of(members));
    }

    synchronized String members() {
      return members.toString();
    }
  }

  // BUG: the rooms are locked in the order of the arguments, so two opposite moves lock them in
  // opposite orders.
  static void move(String member, Room from, Room to) {
    synchronized (from) {
      synchronized (to) {
        if (from.members.remove(member)) {
          to.members.add(member);
        }
      }
    }
  }

  static class Moderator implements Runnable {
    private final String member;
    private final Room from;
    private final Room to;
    private final boolean screen;
    private long screeningChecksum;

    Moderator(String member, Room from, Room to, boolean screen) {
      this.member = member;
      this.from = from;
      this.to = to;
      this.screen = screen;
    }

    @Override
    public void run() {
      if (screen) {
        screenName();
      }
      move(member, from, to);
    }

    /**
     * Local work (a checksum of the name) without any synchronization: invisible to jsched, but
     * in plain runs it keeps this moderator behind the other one.
     */
    private void screenName() {
      long sum = member.hashCode();
      for (int i = 0; i < 200_000; i++) {
        sum = sum * 31 + i;
      }
      screeningChecksum = sum;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Room lobby = new Room("alice", "carol");
    Room games = new Room("bob", "dave");
    Thread moderator1 = Thread.startVirtualThread(new Moderator("alice", lobby, games, false));
    Thread moderator2 = Thread.startVirtualThread(new Moderator("bob", games, lobby, true));
    moderator1.join();
    moderator2.join();
    String result = "lobby=" + lobby.members() + " games=" + games.members();
    if (!result.equals("lobby=[bob, carol] games=[alice, dave]")) {
      throw new AssertionError("rooms after the moves: " + result);
    }
    System.out.println(result);
  }
}
