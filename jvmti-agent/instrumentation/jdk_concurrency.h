// The JDK classes jsched rewrites even when the JDK itself is not instrumented, so that
// java.util.concurrent blocks, times out and starts threads where the scheduler sees it:
// LockSupport's park/unpark go to the scheduler (every j.u.c. primitive blocks through them),
// the clocks of java.time and java.util.Date read the scheduler's clock,
// Thread.start/interrupt/... calls made by JDK code (executor workers, timers) are hooked like
// the application's, and their clock reads are the scheduler's. java.util.Timer's classes wait
// on monitors, so they get the full instrumentation.
#pragma once

#include <optional>
#include <string_view>

#include "rewriter/config.h"

namespace jsched::agent {

// How to rewrite JDK class `internal_name`, given the application's configuration; nothing
// for classes outside these packages.
std::optional<rw::RewriteConfig> jdk_concurrency_config(std::string_view internal_name,
                                                        const rw::RewriteConfig& app);

// The class loaded before jsched can see it that must be retransformed.
inline constexpr const char* kLockSupport = "java/util/concurrent/locks/LockSupport";

// The JDK's clocks and sources of chance for the application: Instant.now, the system Clocks
// (and the java.time now() methods built on them), InstantSource.system(), new Date() and
// Calendar.getInstance() read the execution's clock;
// new Random(), ThreadLocalRandom and new SplittableRandom() take their seeds from the
// execution's seed (for controlled threads); blocking socket and selector waits go to the
// scheduler (jvmti-agent/model/io_waits.h). They may be loaded before jsched sees class loads,
// so they are retransformed at VM init too.
bool is_environment_class(std::string_view internal_name);

// The sources of chance among them, loaded and initialized at VM init whether or not the program
// uses them: their static seeders are then made the same way in every JVM, before an execution
// or a thread of the JDK's draws (an iteration of a seed draws as a JVM of that seed alone does).
// The others are left to load when the program needs them (a calendar's initialization took
// a fifth of a small program's start).
inline constexpr const char* kChanceClasses[] = {
    "java/util/Random", "java/util/concurrent/ThreadLocalRandom", "java/util/SplittableRandom"};
inline constexpr const char* kEnvironmentClasses[] = {
    "java/time/Instant",
    "java/time/Clock$SystemClock",
    "java/time/Clock$SystemInstantSource",
    "java/util/Date",
    "java/util/GregorianCalendar",
    "java/util/JapaneseImperialCalendar",
    "java/text/SimpleDateFormat",
    "sun/util/locale/provider/CalendarProviderImpl",
    "sun/util/calendar/AbstractCalendar",
    "sun/util/calendar/Gregorian",
    "sun/util/calendar/JulianCalendar",
    "sun/util/calendar/LocalGregorianCalendar",
    "java/util/Random",
    "java/util/concurrent/ThreadLocalRandom",
    "java/util/SplittableRandom",
    "sun/nio/ch/NioSocketImpl",
    "sun/nio/ch/EPollSelectorImpl"};

}  // namespace jsched::agent
