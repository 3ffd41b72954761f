#include "jvmti-agent/model/io_waits.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
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

// A connected loopback socket whose peer is a socket of this process.
bool socket_peer_in_process(int fd) {
  sockaddr_storage peer{};
  socklen_t len = sizeof peer;
  if (getpeername(fd, reinterpret_cast<sockaddr*>(&peer), &len) != 0 || !loopback(peer))
    return false;
  DIR* d = opendir("/proc/self/fd");
  if (!d) return false;
  bool found = false;
  while (dirent* e = readdir(d)) {
    int other = std::atoi(e->d_name);
    if (other <= 2 || other == fd) continue;
    // getsockname fails on anything but a socket, and same_endpoint wants an inet one.
    sockaddr_storage local{};
    socklen_t l = sizeof local;
    if (getsockname(other, reinterpret_cast<sockaddr*>(&local), &l) == 0 &&
        same_endpoint(local, peer)) {
      found = true;
      break;
    }
  }
  closedir(d);
  return found;
}

}  // namespace

bool fd_ready(int fd, uint32_t events) {
  pollfd p{fd, short(events), 0};
  return poll(&p, 1, 0) > 0;
}

bool peer_in_process(int fd) {
  std::string link = link_of(fd);
  if (link == "anon_inode:[eventpoll]") {
    // An epoll set: every descriptor in it (its fdinfo lists them as "tfd: N").
    std::ifstream info("/proc/self/fdinfo/" + std::to_string(fd));
    bool any = false;
    for (std::string line; std::getline(info, line);) {
      if (line.rfind("tfd:", 0) != 0) continue;
      int target = std::atoi(line.c_str() + 4);
      if (!peer_in_process(target)) return false;
      any = true;
    }
    return any;
  }
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

}  // namespace jsched::agent
