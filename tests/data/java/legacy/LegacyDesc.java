// Compiled with --release 7 (class version 51): an interface whose constant is an instance of
// its own nested class, as hamcrest's Description (Description.NONE) and mockito 1.9's NoOp are.
// Before Java 8 an interface may hold no static method but <clinit>, so jsched's statics reset
// cannot add calls there (it did, and every such interface failed verification).
public interface LegacyDesc {
  LegacyDesc NONE = new NullDesc();
  LegacyDesc LOUD = new Loud(NONE);

  String text();

  final class NullDesc implements LegacyDesc {
    public String text() {
      return "none";
    }
  }

  final class Loud implements LegacyDesc {
    private final LegacyDesc inner;

    Loud(LegacyDesc inner) {
      this.inner = inner;
    }

    public synchronized String text() {
      return inner.text().toUpperCase();
    }
  }
}
