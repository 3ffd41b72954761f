package com.zaxxer.hikari.pool;

import static com.zaxxer.hikari.pool.TestElf.newHikariConfig;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertSame;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.util.FastList;
import java.lang.reflect.Field;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.Test;

/**
 * HikariCP issue 955: statements closed on another thread than the one that made them. A
 * connection tracks its open statements in a FastList, which is not thread-safe; the fix made
 * the tracking synchronized. Here a second thread closes two statements while the connection's
 * owner makes a third: afterwards exactly the third must be tracked.
 */
public class StatementCloseRaceTest
{
   @Test
   public void statementsClosedOnAnotherThreadAreUntracked() throws Exception
   {
      HikariConfig config = newHikariConfig();
      config.setMinimumIdle(1);
      config.setMaximumPoolSize(1);
      config.setDataSourceClassName("com.zaxxer.hikari.mocks.StubDataSource");
      try (HikariDataSource ds = new HikariDataSource(config);
           Connection connection = ds.getConnection()) {
         final Statement first = connection.createStatement();
         final Statement second = connection.createStatement();
         Thread closer = new Thread(() -> {
            try {
               first.close();
               second.close();
            }
            catch (SQLException e) {
               throw new RuntimeException(e);
            }
         });
         closer.start();
         Statement third = connection.createStatement();
         closer.join();

         Field field = ProxyConnection.class.getDeclaredField("openStatements");
         field.setAccessible(true);
         FastList<?> open = (FastList<?>) field.get(connection);
         assertEquals(1, open.size());
         assertSame(third.unwrap(Statement.class), open.get(0));
      }
   }
}
