// Whether data may be on its way to a descriptor a thread waits on (jvmti-agent/model/io_waits.h),
// on real loopback sockets, pipes and epoll sets of this process: "nothing coming" lets a
// deadlock of two readers be called at once, so it must never be said while something is.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "jvmti-agent/model/io_waits.h"

using jsched::agent::fd_in_flight;
using jsched::agent::fd_ready;

namespace {

struct Connection {
  int listener = -1, client = -1, server = -1;
  Connection() {
    listener = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        listen(listener, 4) != 0 ||
        getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      return;
    client = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(client, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) return;
    server = accept(listener, nullptr, nullptr);
  }
  ~Connection() {
    for (int fd : {listener, client, server})
      if (fd >= 0) close(fd);
  }
};

// Waits up to two seconds for `done`.
template <typename F>
bool within_two_seconds(F done) {
  for (int i = 0; i < 2000; ++i) {
    if (done()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return done();
}

}  // namespace

TEST(IoWaits, AReadOfAQuietConnectionHasNothingComingUntilThePeerWrites) {
  Connection c;
  ASSERT_GE(c.server, 0);
  // A second connection on the same port: its sockets share the listener's address, and
  // only the exact peer's queue counts.
  Connection other;
  ASSERT_GE(other.server, 0);
  EXPECT_FALSE(fd_in_flight(c.client, POLLIN));
  EXPECT_FALSE(fd_in_flight(c.server, POLLIN));
  ASSERT_EQ(write(c.server, "x", 1), 1);
  // Sent and not yet read: coming, or here (both hold the model).
  EXPECT_TRUE(fd_in_flight(c.client, POLLIN));
  ASSERT_TRUE(within_two_seconds([&] { return fd_ready(c.client, POLLIN); }));
  EXPECT_TRUE(fd_in_flight(c.client, POLLIN)) << "arrived is not 'nothing coming'";
  char b;
  ASSERT_EQ(read(c.client, &b, 1), 1);
  // Read, and once acknowledged nothing is left on its way.
  EXPECT_TRUE(within_two_seconds([&] { return !fd_in_flight(c.client, POLLIN); }));
  // The peer's end of the connection closed: its FIN is something that comes.
  shutdown(c.server, SHUT_WR);
  EXPECT_TRUE(fd_in_flight(c.client, POLLIN));
}

TEST(IoWaits, WhatCannotBeJudgedMayAlwaysBeComing) {
  Connection c;
  ASSERT_GE(c.server, 0);
  EXPECT_TRUE(fd_in_flight(c.listener, POLLIN)) << "a connection may be half made";
  EXPECT_TRUE(fd_in_flight(c.client, POLLOUT)) << "a write waits for room, not for data";
  int pair[2];
  ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, pair), 0);
  EXPECT_TRUE(fd_in_flight(pair[0], POLLIN)) << "not a loopback connection";
  close(pair[0]);
  close(pair[1]);
}

TEST(IoWaits, APipeAndAnEpollSetHaveSomethingComingOnlyWhenTheirDescriptorsDo) {
  int p[2];
  ASSERT_EQ(pipe(p), 0);
  EXPECT_FALSE(fd_in_flight(p[0], POLLIN));
  Connection c;
  ASSERT_GE(c.server, 0);
  int ep = epoll_create1(0);
  for (int fd : {p[0], c.client}) {
    epoll_event e{};
    e.events = EPOLLIN;
    e.data.fd = fd;
    ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, fd, &e), 0);
  }
  EXPECT_FALSE(fd_in_flight(ep, POLLIN));
  ASSERT_EQ(write(c.server, "x", 1), 1);
  EXPECT_TRUE(fd_in_flight(ep, POLLIN));
  char b;
  ASSERT_TRUE(within_two_seconds([&] { return fd_ready(c.client, POLLIN); }));
  ASSERT_EQ(read(c.client, &b, 1), 1);
  EXPECT_TRUE(within_two_seconds([&] { return !fd_in_flight(ep, POLLIN); }));
  ASSERT_EQ(write(p[1], "y", 1), 1);
  EXPECT_TRUE(fd_in_flight(p[0], POLLIN));
  EXPECT_TRUE(fd_in_flight(ep, POLLIN));
  epoll_event l{};
  l.events = EPOLLIN;
  ASSERT_EQ(epoll_ctl(ep, EPOLL_CTL_ADD, c.listener, &l), 0);
  ASSERT_EQ(read(p[0], &b, 1), 1);
  EXPECT_TRUE(fd_in_flight(ep, POLLIN))
      << "a listening socket in the set may have a connection coming";
  for (int fd : {ep, p[0], p[1]}) close(fd);
}
