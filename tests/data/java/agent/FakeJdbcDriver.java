import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.Driver;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.util.Properties;
import java.util.logging.Logger;

// A JDBC driver as real ones are: it registers itself with DriverManager when its class is
// initialized, and is found through META-INF/services/java.sql.Driver (which the test writes).
public class FakeJdbcDriver implements Driver {
  static {
    try {
      DriverManager.registerDriver(new FakeJdbcDriver());
    } catch (SQLException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @Override
  public Connection connect(String url, Properties info) {
    if (!acceptsURL(url)) return null;
    return (Connection) Proxy.newProxyInstance(FakeJdbcDriver.class.getClassLoader(),
        new Class<?>[] {Connection.class},
        (proxy, method, args) -> method.getReturnType() == boolean.class ? false : null);
  }

  @Override
  public boolean acceptsURL(String url) {
    return url.startsWith("jdbc:fake:");
  }

  @Override
  public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
    return new DriverPropertyInfo[0];
  }

  @Override
  public int getMajorVersion() {
    return 1;
  }

  @Override
  public int getMinorVersion() {
    return 0;
  }

  @Override
  public boolean jdbcCompliant() {
    return false;
  }

  @Override
  public Logger getParentLogger() {
    return Logger.getGlobal();
  }
}
