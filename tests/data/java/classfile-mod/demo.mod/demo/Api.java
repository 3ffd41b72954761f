package demo;

public interface Api {
  String name();
}
