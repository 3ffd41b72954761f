#include "rewriter/rewrite_check.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "classfile/opcodes.h"

namespace jsched::rw {

namespace {

using cf::Tag;
namespace acc = cf::acc;

constexpr uint32_t bit(Tag t) {
  return 1u << unsigned(t);
}

// The constant kinds an instruction may name in a class of version `major` (HotSpot's
// ClassVerifier and the old verifier agree on these), or 0 for an instruction with no constant.
uint32_t allowed_constants(uint8_t o, uint16_t major) {
  switch (o) {
    case cf::op::getstatic:
    case cf::op::putstatic:
    case cf::op::getfield:
    case cf::op::putfield:
      return bit(Tag::Fieldref);
    case cf::op::invokevirtual:
      return bit(Tag::Methodref);
    case cf::op::invokespecial:
    case cf::op::invokestatic:
      // Static and private interface methods came with Java 8 (version 52).
      return bit(Tag::Methodref) | (major >= 52 ? bit(Tag::InterfaceMethodref) : 0);
    case cf::op::invokeinterface:
      return bit(Tag::InterfaceMethodref);
    case cf::op::invokedynamic:
      return major >= 51 ? bit(Tag::InvokeDynamic) : 0;
    case cf::op::new_:
    case cf::op::anewarray:
    case cf::op::checkcast:
    case cf::op:: instanceof:
    case cf::op::multianewarray:
      return bit(Tag::Class);
    case cf::op::ldc:
    case cf::op::ldc_w: {
      uint32_t t = bit(Tag::Integer) | bit(Tag::Float) | bit(Tag::String);
      if (major >= 49) t |= bit(Tag::Class);
      if (major >= 51) t |= bit(Tag::MethodType) | bit(Tag::MethodHandle);
      if (major >= 55) t |= bit(Tag::Dynamic);
      return t;
    }
    case cf::op::ldc2_w:
      return bit(Tag::Long) | bit(Tag::Double) | (major >= 55 ? bit(Tag::Dynamic) : 0);
    default:
      return 0;
  }
}

bool names_constant(uint8_t o) {
  const cf::Operand k = cf::kOps[o].operand;
  return k == cf::Operand::Cp1 || k == cf::Operand::Cp2 || k == cf::Operand::InvokeInterface ||
         k == cf::Operand::InvokeDynamic || k == cf::Operand::MultiANewArray;
}

int visibility_count(uint16_t a) {
  return ((a & acc::kPublic) != 0) + ((a & acc::kPrivate) != 0) + ((a & acc::kProtected) != 0);
}

// HotSpot's ClassFileParser::verify_legal_method_modifiers, for one method.
bool legal_method_flags(const cf::ClassFile& cf, const cf::Member& m, bool is_interface) {
  const std::string_view name = cf.member_name(m);
  const uint16_t a = m.access;
  if (name == "<clinit>") return cf.major < 51 || (a & acc::kStatic) != 0;
  const bool is_public = a & acc::kPublic, is_private = a & acc::kPrivate,
             is_protected = a & acc::kProtected, is_static = a & acc::kStatic,
             is_final = a & acc::kFinal, is_sync = a & acc::kSynchronized,
             is_native = a & acc::kNative, is_abstract = a & acc::kAbstract,
             is_strict = a & acc::kStrict, is_bridge = a & acc::kBridge;
  if (is_interface) {
    if (cf.major >= 52) {
      return is_public != is_private && !is_native && !is_protected && !is_final && !is_sync &&
             !(is_abstract && (is_private || is_static || (cf.major < 61 && is_strict)));
    }
    if (cf.major >= 49) {
      return is_public && !is_private && !is_protected && !is_static && !is_final && !is_sync &&
             !is_native && is_abstract && !is_strict;
    }
    return is_public && !is_static && !is_final && !is_native && is_abstract;
  }
  if (visibility_count(a) > 1) return false;
  if (name == "<init>")
    return !is_static && !is_final && !is_sync && !is_native && !is_abstract &&
           !(cf.major >= 49 && is_bridge);
  if (!is_abstract) return true;
  return !is_final && !is_native && !is_private && !is_static &&
         !(cf.major >= 49 && (is_sync || (cf.major < 61 && is_strict)));
}

// HotSpot's ClassFileParser::verify_legal_field_modifiers.
bool legal_field_flags(uint16_t a, bool is_interface) {
  if (is_interface) {
    const uint16_t required = acc::kPublic | acc::kStatic | acc::kFinal;
    return (a & required) == required &&
           (a & (acc::kPrivate | acc::kProtected | acc::kVolatile | acc::kTransient)) == 0;
  }
  return visibility_count(a) <= 1 && !((a & acc::kFinal) && (a & acc::kVolatile));
}

// The locals on entry, in frame form, by tag only (enough to tell Top from a value).
std::vector<cf::VType> entry_locals(const cf::ClassFile& cf, const cf::Member& m) {
  std::vector<cf::VType> out;
  const cf::VType object{cf::VType::Object, 0, cf::kNoLabel};
  if ((m.access & acc::kStatic) == 0) out.push_back(object);
  const std::string_view d = cf.member_desc(m);
  for (size_t i = 1; i < d.size() && d[i] != ')'; ++i) {
    cf::VType t = object;
    const size_t first = i;
    while (d[i] == '[') ++i;
    if (d[i] == 'L') i = d.find(';', i);
    if (i == std::string_view::npos) break;
    if (first == i) {
      t.tag = d[i] == 'J'   ? cf::VType::Long
              : d[i] == 'D' ? cf::VType::Double
              : d[i] == 'F' ? cf::VType::Float
              : d[i] == 'L' ? cf::VType::Object
                            : cf::VType::Integer;
    }
    out.push_back(t);
  }
  return out;
}

// Each frame's locals in slot form, by decoding the compact encodings against `entry`.
std::vector<std::vector<cf::VType>> frame_slots(const cf::CodeAttr& smt,
                                                std::vector<cf::VType> locals) {
  std::vector<std::vector<cf::VType>> out;
  for (const cf::Frame& f : smt.frames) {
    if (f.type >= 248 && f.type <= 250) {
      locals.resize(locals.size() - std::min<size_t>(locals.size(), size_t(251 - f.type)));
    } else if (f.type >= 252 && f.type <= 254) {
      locals.insert(locals.end(), f.locals.begin(), f.locals.end());
    } else if (f.type == 255) {
      locals.assign(f.locals.begin(), f.locals.end());
    }
    std::vector<cf::VType> slots;
    for (const cf::VType& t : locals) {
      slots.push_back(t);
      if (t.wide()) slots.push_back(cf::VType{});
    }
    out.push_back(std::move(slots));
  }
  return out;
}

std::string where(const cf::ClassFile& cf, const cf::Member& m) {
  return std::string(cf.member_name(m)) + std::string(cf.member_desc(m));
}

// The instructions of one decoded method: constants of the kinds allowed, no subroutines
// where the type checker forbids them, and (with frames) a frame at every branch target,
// handler and instruction that only a jump can reach.
std::string check_code(const cf::ClassFile& cf, const cf::Member& m) {
  const cf::Code& code = *m.code;
  for (const cf::Insn& in : code.insns) {
    if (in.is_label()) continue;
    if (cf.major >= 51 && (in.op == cf::op::jsr || in.op == cf::op::jsr_w || in.op == cf::op::ret))
      return where(cf, m) + ": " + cf::kOps[in.op].name + " in a class of version " +
             std::to_string(cf.major);
    if (!names_constant(in.op)) continue;
    const uint32_t allowed = allowed_constants(in.op, cf.major);
    const bool known = in.u > 0 && in.u < cf.cp.count();
    if (allowed == 0 || !known || (allowed & bit(cf.cp.at(in.u).tag)) == 0) {
      return where(cf, m) + ": " + cf::kOps[in.op].name + " names constant " +
             std::to_string(in.u) + " (" + (known ? cf::tag_name(cf.cp.at(in.u).tag) : "none") +
             "), not allowed in a class of version " + std::to_string(cf.major);
    }
  }
  for (const cf::ExceptionEntry& e : code.exceptions) {
    if (e.catch_type != 0 && !cf.cp.valid(e.catch_type, Tag::Class))
      return where(cf, m) + ": a handler's catch type is not a class constant";
  }
  const cf::CodeAttr* frames = nullptr;
  for (const cf::CodeAttr& a : code.attrs) {
    if (a.kind == cf::CodeAttr::StackMap) frames = &a;
  }
  if (cf.major < 51) return "";  // 50 falls back to the old verifier
  // Several labels may mark one position: frames and targets are compared by the index of the
  // instruction a label stands before.
  std::unordered_map<cf::Label, size_t> at;
  std::vector<cf::Label> pending;
  size_t index = 0;
  for (const cf::Insn& in : code.insns) {
    if (in.is_label()) {
      pending.push_back(cf::Label(in.v));
      continue;
    }
    for (cf::Label l : pending) at[l] = index;
    pending.clear();
    ++index;
  }
  std::vector<const cf::Insn*> real;  // by index
  for (const cf::Insn& in : code.insns) {
    if (!in.is_label()) real.push_back(&in);
  }
  std::unordered_set<size_t> framed;
  if (frames != nullptr) {
    for (const cf::Frame& f : frames->frames) {
      if (auto it = at.find(f.at); it != at.end()) framed.insert(it->second);
      // An uninitialized object is named by the offset of its `new`.
      for (const auto* types : {&f.locals, &f.stack}) {
        for (const cf::VType& t : *types) {
          if (t.tag != cf::VType::Uninitialized) continue;
          auto n = at.find(t.label);
          if (n == at.end() || n->second >= real.size() || real[n->second]->op != cf::op::new_)
            return where(cf, m) + ": a frame's uninitialized object is not at a new";
        }
      }
    }
  }
  auto needs = [&](cf::Label l, const char* what) -> std::string {
    auto it = at.find(l);
    if (it != at.end() && framed.count(it->second)) return "";
    return where(cf, m) + ": no stack map frame at " + what;
  };
  bool after_jump = false;
  index = 0;
  for (const cf::Insn& in : code.insns) {
    if (in.is_label()) continue;
    if (after_jump && !framed.count(index))
      return where(cf, m) + ": no stack map frame after an unconditional jump";
    ++index;
    after_jump = cf::ends_block(in.op);
    std::string missing;
    if (cf::is_branch(in.op) && in.op != cf::op::jsr && in.op != cf::op::jsr_w)
      missing = needs(cf::Label(in.v), "a branch target");
    if (in.op == cf::op::tableswitch || in.op == cf::op::lookupswitch) {
      const cf::Switch& s = code.switches[size_t(in.v)];
      missing = needs(s.dflt, "a switch target");
      for (uint32_t k = 0; k < s.count && missing.empty(); ++k)
        missing = needs(code.switch_targets[s.first + k], "a switch target");
    }
    if (!missing.empty()) return missing;
  }
  for (const cf::ExceptionEntry& e : code.exceptions) {
    if (std::string missing = needs(e.handler, "a handler"); !missing.empty()) return missing;
  }
  // Every instruction a handler covers must have the locals the handler's frame has: a frame
  // inside the range where such a local is Top can never match it (dead code's frames,
  // Groovy's: the type checker checks them against the handler too).
  if (frames != nullptr) {
    const std::vector<std::vector<cf::VType>> slots = frame_slots(*frames, entry_locals(cf, m));
    std::unordered_map<size_t, size_t> frame_at;  // instruction index -> frame
    for (size_t k = 0; k < frames->frames.size(); ++k) {
      if (auto it = at.find(frames->frames[k].at); it != at.end()) frame_at[it->second] = k;
    }
    for (const cf::ExceptionEntry& e : code.exceptions) {
      auto from = at.find(e.start), to = at.find(e.end), h = at.find(e.handler);
      if (from == at.end() || h == at.end() || !frame_at.count(h->second)) continue;
      const std::vector<cf::VType>& want = slots[frame_at[h->second]];
      const size_t end = to == at.end() ? real.size() : to->second;
      for (size_t i = from->second; i < end; ++i) {
        auto f = frame_at.find(i);
        if (f == frame_at.end()) continue;
        const std::vector<cf::VType>& have = slots[f->second];
        for (size_t k = 0; k < want.size(); ++k) {
          if (want[k].tag != cf::VType::Top && (k >= have.size() || have[k].tag == cf::VType::Top))
            return where(cf, m) + ": a handler's frame has local " + std::to_string(k) +
                   ", which a frame in its range lacks";
        }
      }
    }
  }
  return "";
}

}  // namespace

std::string check_rewritten(const cf::ClassFile& cf) {
  const bool is_interface = (cf.access & acc::kInterface) != 0;
  for (const cf::Member& f : cf.fields) {
    if (!legal_field_flags(f.access, is_interface))
      return "field " + std::string(cf.member_name(f)) + ": access flags " +
             std::to_string(f.access) + " not allowed";
  }
  for (const cf::Member& m : cf.methods) {
    if (m.code == nullptr) continue;  // written back as it was read
    if (!legal_method_flags(cf, m, is_interface))
      return "method " + where(cf, m) + ": access flags " + std::to_string(m.access) +
             " not allowed in " + (is_interface ? "an interface" : "a class") + " of version " +
             std::to_string(cf.major);
    if (std::string why = check_code(cf, m); !why.empty()) return "method " + why;
  }
  return "";
}

}  // namespace jsched::rw
