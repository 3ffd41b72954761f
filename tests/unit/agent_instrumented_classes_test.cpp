// accesses=shared's reads of final references (jvmti-agent/instrumentation/instrumented_classes.h):
// which objects a final field can hold whose every access has the run's points.
#include <gtest/gtest.h>

#include "jvmti-agent/instrumentation/instrumented_classes.h"

using jsched::agent::InstrumentedClasses;

TEST(InstrumentedClasses, AClassCoversWhenItAndEverySuperclassWereInstrumented) {
  InstrumentedClasses c;
  c.add("app/Base", "java/lang/Object");
  c.add("app/Account", "app/Base");
  c.add("app/Listener", "java/lang/Object");  // an interface
  EXPECT_TRUE(c.covers("Lapp/Account;"));
  EXPECT_TRUE(c.covers("Lapp/Base;"));
  EXPECT_TRUE(c.covers("Lapp/Listener;"));
  // A subclass of a JDK class runs the JDK's code on its inherited state.
  c.add("app/Registry", "java/util/HashMap");
  EXPECT_FALSE(c.covers("Lapp/Registry;"));
  // A superclass not instrumented (not loaded yet, or left as it was): not yet.
  c.add("app/Late", "app/Missing");
  EXPECT_FALSE(c.covers("Lapp/Late;"));
  c.add("app/Missing", "java/lang/Object");
  EXPECT_TRUE(c.covers("Lapp/Late;"));
  // An enum of the application's: java.lang.Enum holds only final state.
  c.add("app/Level", "java/lang/Enum");
  EXPECT_TRUE(c.covers("Lapp/Level;"));
  EXPECT_FALSE(c.covers("Ljava/lang/Enum;")) << "any enum, the JDK's too";
}

TEST(InstrumentedClasses, JdkTypesAndArraysNeverCoverButImmutableValuesDo) {
  InstrumentedClasses c;
  EXPECT_FALSE(c.covers("Ljava/util/Map;"));
  EXPECT_FALSE(c.covers("Ljava/util/concurrent/ConcurrentHashMap;"));
  EXPECT_FALSE(c.covers("[I"));
  EXPECT_FALSE(c.covers("[Lapp/Account;"));
  EXPECT_FALSE(c.covers("I"));
  EXPECT_FALSE(c.covers("L;"));
  EXPECT_FALSE(c.covers("Lapp/Unknown;"));
  for (const char* v : {"Ljava/lang/String;", "Ljava/lang/Integer;", "Ljava/lang/Boolean;",
                        "Ljava/lang/Long;", "Ljava/lang/Double;"})
    EXPECT_TRUE(c.covers(v)) << v;
  EXPECT_FALSE(c.covers("Ljava/lang/Object;"));
  EXPECT_FALSE(c.covers("Ljava/lang/StringBuilder;"));
}
