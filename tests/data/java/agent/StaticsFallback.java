import java.util.ArrayList;
import java.util.List;

/**
 * Statics a reset cannot make clean: an interface's static fields (always final; argument
 * "interface"), and a class whose initializer threw the first time the JVM ran it (the JVM keeps
 * it unusable; argument "broken", first used in the second execution, where it throws). Each execution must
 * still see them as a fresh JVM would. Prints "statics clean".
 */
public class StaticsFallback {
  interface Registry {
    List<String> NAMES = new ArrayList<>();
  }

  static class Broken {
    static final int VALUE = compute();

    static int compute() {
      if (execution == 1)
        throw new IllegalStateException("broken once");
      return 1;
    }
  }

  static int execution;

  public static void main(String[] args) {
    execution = Integer.getInteger("fallback.execution", 0);
    System.setProperty("fallback.execution", Integer.toString(execution + 1));
    if (args[0].equals("interface")) {
      if (!Registry.NAMES.isEmpty()) throw new AssertionError("interface list carried over");
      Registry.NAMES.add("x");
    } else if (execution >= 1) try {
      if (Broken.VALUE != 1) throw new AssertionError("Broken.VALUE");
      if (execution == 1) throw new AssertionError("Broken initialized in execution 1");
    } catch (ExceptionInInitializerError e) {
      if (execution != 1) throw new AssertionError("Broken failed in execution " + execution, e);
    }
    System.out.println("statics clean");
  }
}
