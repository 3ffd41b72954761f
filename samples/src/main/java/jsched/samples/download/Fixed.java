/*
 * download, fixed: every update of the byte counter holds the lock (see Main for the program).
 */
package jsched.samples.download;

public class Fixed {
  public static void main(String[] args) throws Exception {
    Main.run(args.length > 0 ? Integer.parseInt(args[0]) : 4, true);
  }
}
