// The Thread and Object operations jsched hooks at their call sites (start, join, interrupt,
// sleep, yield, wait, notify, ...): which hook replaces a call, by opcode, name and descriptor.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "rewriter/hooks.h"
#include "rewriter/sites.h"

namespace jsched::rw {

struct CallMatch {
  Hook hook;
  SiteKind kind;
  enum { ObjectMethod, ThreadInstance, ThreadStatic } group;
};

// The hook for a call `o` (invokevirtual, invokeinterface, invokestatic) of `name` `desc`, or
// nothing. The owner is the caller's business (Thread's, a subclass's, an interface's).
std::optional<CallMatch> match_call(uint8_t o, std::string_view name, std::string_view desc);

}  // namespace jsched::rw
