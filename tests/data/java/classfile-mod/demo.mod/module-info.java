module demo.mod {
  requires java.logging;
  exports demo;
}
