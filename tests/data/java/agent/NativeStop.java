// A program that loads a JNI library and has a class whose initializer throws: the next
// execution cannot reuse its classes (the class stays in error) nor load them afresh (a second
// class loader cannot load the library), so in-JVM iterations stop with an error rather than
// run on and blame the program for an UnsatisfiedLinkError.
public class NativeStop {
  static final class Broken {
    static int value = Integer.parseInt("not a number");
  }

  public static void main(String[] args) {
    System.load(System.getProperty("java.home") + "/lib/libjsound.so");
    try {
      System.out.println(Broken.value);
    } catch (ExceptionInInitializerError expected) {
      System.out.println("ran");
    }
  }
}
