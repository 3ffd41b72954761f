// Ends its own JVM with SIGKILL, which leaves the agent no moment to write anything (a crash
// does the same): a run of it writes no report and no profile.
public class KillsItself {
  public static void main(String[] args) throws Exception {
    String pid = Long.toString(ProcessHandle.current().pid());
    new ProcessBuilder("kill", "-9", pid).inheritIO().start().waitFor();
    Thread.sleep(10000);
  }
}
