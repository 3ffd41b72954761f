import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;

/**
 * Every execution of iterations=N must start with the statics a fresh JVM would have, however
 * they are made clean (static initializers run again, or classes loaded again): a counter, a
 * static final list, an enum constant's mutable field (and valueOf, values, EnumSet and EnumMap
 * over the new constants), a lazily initialized holder (initialized at its first use in this
 * execution, not before), a superclass initialized before its subclass, and an initializer that
 * throws in some executions (ExceptionInInitializerError, then NoClassDefFoundError, in that
 * execution only). Prints "statics clean" when all hold.
 */
public class StaticsReset {
  static int counter;
  static final List<String> EVENTS = new ArrayList<>();
  static boolean mainStarted;

  enum Color {
    RED,
    GREEN;
    int uses;
  }

  static class Holder {
    static final List<String> INSTANCE = make();

    static List<String> make() {
      if (!mainStarted) throw new AssertionError("holder initialized before its first use");
      EVENTS.add("holder");
      return new ArrayList<>();
    }
  }

  static class Base {
    static {
      EVENTS.add("base");
    }
  }

  static class Sub extends Base {
    static int value = 7;

    static {
      EVENTS.add("sub");
    }
  }

  // Throws in the executions whose number (counted in a system property, which outlives an
  // execution) is odd; first used in execution 2, where it succeeds (a class whose first
  // initialization throws is another case: StaticsFallback).
  static class Flaky {
    static final int VALUE = compute();

    static int compute() {
      if (execution % 2 == 1) throw new IllegalStateException("flaky " + execution);
      return 42;
    }
  }

  static int execution;

  static void check(boolean ok, String what) {
    if (!ok) throw new AssertionError(what);
  }

  public static void main(String[] args) throws Exception {
    execution = Integer.getInteger("statics.execution", 0);
    System.setProperty("statics.execution", Integer.toString(execution + 1));
    check(EVENTS.isEmpty(), "events carried over: " + EVENTS);
    mainStarted = true;
    check(++counter == 1, "counter = " + counter);
    EVENTS.add("main");

    check(Color.RED.uses == 0 && Color.GREEN.uses == 0, "enum state carried over");
    Color.RED.uses++;
    check(Color.valueOf("RED") == Color.RED, "valueOf gives an old constant");
    check(Color.values()[0] == Color.RED, "values() gives an old constant");
    check(EnumSet.allOf(Color.class).contains(Color.RED), "EnumSet lost the constant");
    EnumMap<Color, Integer> m = new EnumMap<>(Color.class);
    m.put(Color.valueOf("GREEN"), 1);
    check(m.get(Color.GREEN) == 1, "EnumMap keyed by another constant");

    check(Holder.INSTANCE.isEmpty(), "holder carried over");
    Holder.INSTANCE.add("x");

    check(Sub.value == 7, "Sub.value = " + Sub.value);
    Sub.value++;

    Thread t = new Thread(() -> {
      synchronized (StaticsReset.class) {
        check(counter == 1 && Color.RED.uses == 1 && Holder.INSTANCE.size() == 1,
            "a thread sees other statics");
      }
    });
    t.start();
    t.join();

    if (execution > 1) {
      boolean odd = execution % 2 == 1;
      try {
        check(Flaky.VALUE == 42 && !odd, "Flaky initialized in an odd execution");
      } catch (ExceptionInInitializerError e) {
        check(odd && e.getCause() instanceof IllegalStateException, "first use: " + e);
        try {
          int v = Flaky.VALUE;
          check(false, "second use gave " + v);
        } catch (NoClassDefFoundError e2) {
          // as the JVM: the class stays unusable in this execution
        }
      }
    }
    check(String.join(",", EVENTS).equals("main,holder,base,sub"), "order " + EVENTS);
    System.out.println("statics clean");
  }
}
