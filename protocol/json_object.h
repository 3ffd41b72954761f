// A minimal JSON object writer for reports (strings escaped, numbers and booleans as is).
#pragma once

#include <cstdint>
#include <string>

#include "protocol/json.h"

namespace jsched::json {

class JsonObject {
 public:
  JsonObject& str(const char* k, const std::string& v) { return raw(k, quote(v)); }
  JsonObject& num(const char* k, uint64_t v) { return raw(k, std::to_string(v)); }
  JsonObject& boolean(const char* k, bool v) { return raw(k, v ? "true" : "false"); }
  JsonObject& raw(const char* k, const std::string& v) {
    body_ += (body_.empty() ? "" : ",") + quote(k) + ":" + v;
    return *this;
  }
  std::string text() const { return "{" + body_ + "}"; }

 private:
  std::string body_;
};

}  // namespace jsched::json
