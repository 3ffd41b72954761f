/*
 * lockorder (correct variant): the rooms' monitors taken in one global order.
 *
 * Same program as Main, but move() locks the two rooms in the order of their ids (lower id
 * first), whichever way the member moves. Both moderators lock lobby before games, so neither can
 * hold one monitor while waiting for a monitor that the other one holds.
 *
 * Expected jsched outcome: never fails (exit status 0); prints
 * "lobby=[bob, carol] games=[alice, dave]".
 */
package jsched.samples.virtual.lockorder;

import java.util.Set;
import java.util.TreeSet;

public class Fixed {
  static class Room {
    final int id;
    private final Set<String> members = new TreeSet<>(); // guarded by this

    Room(int id, String... members) {
      this.id = id;
      this.members.addAll(Set.of(members));
    }

    synchronized String members() {
      return members.toString();
    }
  }

  static void move(String member, Room from, Room to) {
    Room first = from.id < to.id ? from : to;
    Room second = from.id < to.id ? to : from;
    synchronized (first) {
      synchronized (second) {
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

    /** Local work (a checksum of the name) without any synchronization. */
    private void screenName() {
      long sum = member.hashCode();
      for (int i = 0; i < 200_000; i++) {
        sum = sum * 31 + i;
      }
      screeningChecksum = sum;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    Room lobby = new Room(1, "alice", "carol");
    Room games = new Room(2, "bob", "dave");
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
