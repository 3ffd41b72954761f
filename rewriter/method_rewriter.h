// Rewriting one method: the per-instruction passes (monitors, calls, field and array accesses,
// allocations), synchronized methods, and branch relocation.
#pragma once

#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "classfile/class_file.h"
#include "rewriter/config.h"
#include "rewriter/hooks.h"
#include "rewriter/sites.h"

namespace jsched::rw {

// A call to a Thread method made through an owner other than java/lang/Thread (a subclass,
// an interface, or an unrelated class with a same-named method). It goes through a synthetic
// static method in the calling class that checks the real receiver (or owner) at run time.
struct BridgeKey {
  uint8_t op;  // invokevirtual, invokeinterface or invokestatic
  std::string owner, name, desc;
  bool operator<(const BridgeKey& o) const {
    return std::tie(op, owner, name, desc) < std::tie(o.op, o.owner, o.name, o.desc);
  }
};

struct BridgeRequest {
  std::string method_name;  // jsched$bridge$N
  std::string method_desc;  // receiver (if any), arguments, int site
  Hook hook;
};

// State shared by the methods of one class.
struct ClassContext {
  cf::ClassFile& cf;
  const RewriteConfig& cfg;
  SiteSink& sites;
  std::string class_name;
  bool is_interface;
  std::map<BridgeKey, BridgeRequest> bridges;
  std::vector<std::string> warnings;
  // Statics reset (rewriter/static_reset.h): the classes whose statics this class's code uses,
  // each with the name of its touch method here.
  std::map<std::string, std::string> touches;
};

// Instruments `m` in place and returns whether anything changed. Throws std::exception when
// the method cannot be instrumented; the caller then restores its original code.
bool rewrite_method(ClassContext& ctx, cf::Member& m);

// Adds the bridge methods requested while rewriting methods.
void add_bridges(ClassContext& ctx);

// Makes every branch offset fit its encoding: goto/jsr become goto_w/jsr_w, a conditional
// branch too far away becomes the opposite condition around a goto_w (with a frame at the
// new fall-through point when the class has frames). Throws std::runtime_error if the code
// exceeds 65535 bytes.
void relocate(cf::ClassFile& cf, const cf::Member& m, cf::Code& code);

// Turns an ACC_SYNCHRONIZED method into explicit, exception-safe monitor enter/exit with
// scheduler hooks around the body.
void desynchronize(ClassContext& ctx, cf::Member& m, cf::Code& code);

// Whether the class needs StackMapTable frames for new branch targets.
inline bool needs_frames(const cf::ClassFile& cf) {
  return cf.major >= 50;
}

}  // namespace jsched::rw
