/*
 * The output oracle (the agent's bug-output=): System.out and System.err, wrapped, hand each
 * line the program prints to the agent, which matches it against the option's pattern; a line
 * that matches makes the execution a bug. Whatever is printed goes on to the stream it was
 * meant for, unchanged.
 *
 * Defined by the agent in the boot loader next to java.lang.JSchedShim, only with bug-output=.
 */
package java.lang;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

final class JSchedOutput extends OutputStream {
  /** Longer lines are matched on their first this many bytes. */
  private static final int MAX_LINE = 64 * 1024;

  private static volatile PrintStream out, err;
  /**
   * The wrappers now System.out and System.err. An earlier one that something else wraps now
   * (Surefire's capture writes its encoded lines to the stream it found) only passes bytes on:
   * each line is matched once, as the program printed it.
   */
  private static volatile JSchedOutput outWatch, errWatch;

  private final PrintStream to;
  private final ByteArrayOutputStream line = new ByteArrayOutputStream();

  private JSchedOutput(PrintStream to) {
    this.to = to;
  }

  /**
   * Wraps System.out and System.err unless they are already the wrappers (a test runner that
   * replaced them since, Surefire say, gets its own streams wrapped: each execution's lines
   * reach the agent whatever the program's harness did to the streams before it).
   */
  static void install() {
    if (System.out != out) {
      outWatch = new JSchedOutput(System.out);
      System.setOut(out = new PrintStream(outWatch, true));
    }
    if (System.err != err) {
      errWatch = new JSchedOutput(System.err);
      System.setErr(err = new PrintStream(errWatch, true));
    }
  }

  /** Called with each complete line (without its line end). */
  private static native void line(String text);

  @Override
  public void write(int b) {
    to.write(b);
    take(b);
  }

  @Override
  public void write(byte[] b, int off, int len) {
    to.write(b, off, len);
    for (int i = off; i < off + len; ++i) take(b[i]);
  }

  @Override
  public void flush() {
    to.flush();
  }

  @Override
  public void close() {
    to.close();
  }

  private void take(int b) {
    if (this != outWatch && this != errWatch) return;
    if (b == '\n') {
      String text = line.toString();
      line.reset();
      if (text.endsWith("\r")) text = text.substring(0, text.length() - 1);
      line(text);
    } else if (line.size() < MAX_LINE) {
      line.write(b);
    }
  }
}
