#include "jvmti-agent/model/io_waits.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <string>

namespace jsched::agent {

namespace {

bool loopback(const sockaddr_storage& a) {
  if (a.ss_family == AF_INET)
    return (ntohl(reinterpret_cast<const sockaddr_in&>(a).sin_addr.s_addr) >> 24) == 127;
  if (a.ss_family == AF_INET6) {
    const in6_addr& x = reinterpret_cast<const sockaddr_in6&>(a).sin6_addr;
    if (IN6_IS_ADDR_LOOPBACK(&x)) return true;
    // ::ffff:127.x.y.z (a v4-mapped loopback address: Java's dual-stack sockets use them)
    return IN6_IS_ADDR_V4MAPPED(&x) && x.s6_addr[12] == 127;
  }
  return false;
}

bool same_endpoint(const sockaddr_storage& a, const sockaddr_storage& b) {
  auto port = [](const sockaddr_storage& s) -> int {
    if (s.ss_family == AF_INET) return ntohs(reinterpret_cast<const sockaddr_in&>(s).sin_port);
    if (s.ss_family == AF_INET6) return ntohs(reinterpret_cast<const sockaddr_in6&>(s).sin6_port);
    return -1;
  };
  return port(a) >= 0 && port(a) == port(b) && loopback(a) && loopback(b);
}

std::string link_of(int fd) {
  char buf[128];
  std::string path = "/proc/self/fd/" + std::to_string(fd);
  ssize_t n = readlink(path.c_str(), buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, size_t(n)) : std::string();
}

// A descriptor of this process (not `fd`) whose socket's own address is `fd`'s peer's and, when
// `exact`, whose peer is `fd`'s own address (the accepted socket of a connection, not its
// listener, which has the same address); -1 if none.
int socket_of_peer(int fd, bool exact) {
  sockaddr_storage peer{}, mine{};
  socklen_t len = sizeof peer, mlen = sizeof mine;
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &len) != 0 || !loopback(peer)) return -1;
  if (exact && getsockname(fd, reinterpret_cast<sockaddr*>(&mine), &mlen) != 0) return -1;
  DIR* d = opendir("/proc/self/fd");
  if (!d) return -1;
  int found = -1;
  while (dirent* e = readdir(d)) {
    int other = std::atoi(e->d_name);
    if (other <= 2 || other == fd) continue;
    // getsockname fails on anything but a socket, and same_endpoint wants an inet one.
    sockaddr_storage local{}, remote{};
    socklen_t l = sizeof local, r = sizeof remote;
    if (getsockname(other, reinterpret_cast<sockaddr*>(&local), &l) != 0 ||
        !same_endpoint(local, peer))
      continue;
    if (exact && (getpeername(other, reinterpret_cast<sockaddr*>(&remote), &r) != 0 ||
                  !same_endpoint(remote, mine)))
      continue;
    found = other;
    break;
  }
  closedir(d);
  return found;
}

// A connected loopback socket whose peer is a socket of this process.
bool socket_peer_in_process(int fd) {
  return socket_of_peer(fd, false) >= 0;
}

// The descriptors an epoll set watches (its fdinfo lists them as "tfd: N").
template <typename F>
bool epoll_targets(int fd, F each) {
  std::ifstream info("/proc/self/fdinfo/" + std::to_string(fd));
  bool any = false;
  for (std::string line; std::getline(info, line);) {
    if (line.rfind("tfd:", 0) != 0) continue;
    any = true;
    if (!each(std::atoi(line.c_str() + 4))) return false;
  }
  return any;
}

}  // namespace

bool fd_ready(int fd, uint32_t events) {
  pollfd p{fd, short(events), 0};
  return poll(&p, 1, 0) > 0;
}

bool peer_in_process(int fd) {
  std::string link = link_of(fd);
  if (link == "anon_inode:[eventpoll]")
    return epoll_targets(fd, [](int target) { return peer_in_process(target); });
  if (link.rfind("socket:", 0) != 0)
    return link.rfind("pipe:", 0) == 0 || link == "anon_inode:[eventfd]";  // a selector's wake-up
  int listening = 0;
  socklen_t len = sizeof listening;
  if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) == 0 && listening) {
    sockaddr_storage local{};
    socklen_t l = sizeof local;
    return getsockname(fd, reinterpret_cast<sockaddr*>(&local), &l) == 0 && loopback(local);
  }
  return socket_peer_in_process(fd);
}

bool fd_in_flight(int fd, uint32_t events) {
  std::string link = link_of(fd);
  if (link == "anon_inode:[eventpoll]") {
    // Something is coming if it is for one of them (epoll_targets stops at the first true).
    bool coming = false;
    epoll_targets(fd, [&](int target) {
      coming = fd_in_flight(target, POLLIN);
      return !coming;
    });
    return coming || fd_ready(fd, events);
  }
  // Each "nothing coming" ends with a look at the descriptor itself, after what it was judged
  // by: what arrived between the model's look and that one is there now.
  if (link.rfind("pipe:", 0) == 0 || link == "anon_inode:[eventfd]") return fd_ready(fd, events);
  if (link.rfind("socket:", 0) != 0 || (events & ~uint32_t(POLLIN | POLLPRI)) != 0) return true;
  int type = 0, listening = 0;
  socklen_t len = sizeof type, llen = sizeof listening;
  if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_STREAM ||
      getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &llen) != 0 || listening)
    return true;
  const int peer = socket_of_peer(fd, true);
  int unacknowledged = 0;
  // The peer's bytes not yet acknowledged (and its FIN): on loopback, acknowledged means in
  // this socket's receive queue, which poll(2) sees.
  return peer < 0 || ioctl(peer, SIOCOUTQ, &unacknowledged) != 0 || unacknowledged > 0 ||
         fd_ready(fd, events);
}

}  // namespace jsched::agent
