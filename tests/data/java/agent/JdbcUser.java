import java.sql.Connection;
import java.sql.DriverManager;

// Opens a connection through DriverManager, as programs on an embedded database do: its driver
// comes from the class path's META-INF/services/java.sql.Driver.
public class JdbcUser {
  public static void main(String[] args) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:fake:db")) {
      if (c == null) throw new AssertionError("no connection");
    }
  }
}
