#include "rewriter/class_rewriter.h"

#include <stdexcept>

#include "classfile/class_file.h"
#include "classfile/code_codec.h"
#include "rewriter/method_references.h"
#include "rewriter/method_rewriter.h"
#include "rewriter/rewrite_check.h"
#include "rewriter/stable_hashes.h"
#include "rewriter/static_reset.h"

namespace jsched::rw {

RewriteResult rewrite_class(cf::Bytes in, const RewriteConfig& cfg, SiteSink& sites) {
  RewriteResult result;
  try {
    cf::ClassFile cf = cf::ClassFile::parse(in);
    if (cf.access & cf::acc::kModule) return result;
    if (cf.super_class != 0) result.super_name = std::string(cf.cp.class_name(cf.super_class));
    ClassContext ctx{cf, cfg, sites, std::string(cf.name()), (cf.access & cf::acc::kInterface) != 0,
                     {}, {},  {}};
    bool changed = false;
    bool reset = cfg.static_reset;
    if (reset) {
      result.not_resettable = reset_unsupported(cf);
      reset = result.not_resettable.empty();
    }
    for (size_t i = 0; i < cf.methods.size(); ++i) {
      cf::Member& m = cf.methods[i];
      if (m.code_attr < 0) continue;
      const uint16_t access = m.access;
      try {
        changed |= rewrite_method(ctx, m);
      } catch (const std::exception& e) {
        // Leave this method exactly as it was: its original Code attribute is written back.
        m.code = nullptr;
        m.access = access;
        result.warnings.push_back("method " + std::string(cf.member_name(m)) +
                                  std::string(cf.member_desc(m)) +
                                  " left uninstrumented: " + e.what());
      }
      if (reset) changed |= add_reset_checks(ctx, m);
    }
    if (cfg.calls) changed |= redirect_method_references(ctx);
    if (cfg.stable_hashes) changed |= add_stable_hash(cf, cfg.hook_owner);
    changed |= reset;
    if (!changed) return result;  // warnings (methods that could not change) stay
    add_bridges(ctx);
    if (reset) result.not_resettable = make_resettable(ctx);
    if (std::string why = check_rewritten(cf); !why.empty()) {
      result = RewriteResult{};
      result.status = RewriteResult::Refused;
      result.error = std::move(why);
      return result;
    }
    result.bytes = cf.write();
    result.status = RewriteResult::Changed;
  } catch (const std::exception& e) {
    result = RewriteResult{};
    result.status = RewriteResult::Failed;
    result.error = e.what();
  }
  return result;
}

}  // namespace jsched::rw
