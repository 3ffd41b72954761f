#include "protocol/json.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace jsched::json {

Value Value::boolean(bool b) {
  Value v;
  v.kind_ = Bool;
  v.b_ = b;
  return v;
}
Value Value::number(double d) {
  Value v;
  v.kind_ = Number;
  v.d_ = d;
  return v;
}
Value Value::string(std::string s) {
  Value v;
  v.kind_ = String;
  v.s_ = std::move(s);
  return v;
}
Value Value::array() {
  Value v;
  v.kind_ = Array;
  return v;
}
Value Value::object() {
  Value v;
  v.kind_ = Object;
  return v;
}

const Value& Value::operator[](const std::string& key) const {
  static const Value null;
  auto it = fields_.find(key);
  return it == fields_.end() ? null : it->second;
}

std::string Value::str(const std::string& key, const std::string& dflt) const {
  const Value& v = (*this)[key];
  return v.is(String) ? v.s_ : dflt;
}

double Value::num(const std::string& key, double dflt) const {
  const Value& v = (*this)[key];
  return v.is(Number) ? v.d_ : dflt;
}

Value& Value::set(const std::string& key, Value v) {
  kind_ = Object;
  return fields_[key] = std::move(v);
}

Value& Value::push(Value v) {
  kind_ = Array;
  items_.push_back(std::move(v));
  return items_.back();
}

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  return out + "\"";
}

std::string Value::dump() const {
  switch (kind_) {
    case Null:
      return "null";
    case Bool:
      return b_ ? "true" : "false";
    case Number: {
      if (std::floor(d_) == d_ && std::fabs(d_) < 1e17) return std::to_string(int64_t(d_));
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", d_);
      return buf;
    }
    case String:
      return quote(s_);
    case Array: {
      std::string out = "[";
      for (size_t i = 0; i < items_.size(); ++i) {
        if (i) out += ',';
        out += items_[i].dump();
      }
      return out + "]";
    }
    case Object: {
      std::string out = "{";
      bool first = true;
      for (const auto& [k, v] : fields_) {
        if (!first) out += ',';
        out += quote(k);
        out += ':';
        out += v.dump();
        first = false;
      }
      return out + "}";
    }
  }
  return "null";
}

namespace {

class Parser {
 public:
  explicit Parser(const std::string& t) : t_(t) {}
  Value document() {
    Value v = value();
    ws();
    if (i_ != t_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) {
    throw ParseError("JSON offset " + std::to_string(i_) + ": " + what);
  }
  void ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\r' || t_[i_] == '\t'))
      ++i_;
  }
  bool eat(const char* word) {
    size_t n = std::char_traits<char>::length(word);
    if (t_.compare(i_, n, word) != 0) return false;
    i_ += n;
    return true;
  }
  Value value() {
    ws();
    if (i_ >= t_.size()) fail("unexpected end");
    char c = t_[i_];
    if (c == '{') return object();
    if (c == '[') return array();
    if (c == '"') return Value::string(string());
    if (eat("true")) return Value::boolean(true);
    if (eat("false")) return Value::boolean(false);
    if (eat("null")) return Value();
    if (c == '-' || (c >= '0' && c <= '9')) return number();
    fail(std::string("unexpected '") + c + "'");
  }
  Value number() {
    const char* start = t_.c_str() + i_;
    char* end = nullptr;
    double d = std::strtod(start, &end);
    if (end == start) fail("bad number");
    i_ += size_t(end - start);
    return Value::number(d);
  }
  std::string string() {
    ++i_;
    std::string out;
    while (i_ < t_.size() && t_[i_] != '"') {
      char c = t_[i_++];
      if (c != '\\') {
        out += c;
        continue;
      }
      if (i_ >= t_.size()) fail("unterminated escape");
      char e = t_[i_++];
      switch (e) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u': {
          if (i_ + 4 > t_.size()) fail("bad \\u escape");
          unsigned cp = unsigned(std::stoul(t_.substr(i_, 4), nullptr, 16));
          i_ += 4;
          if (cp < 0x80) {
            out += char(cp);
          } else if (cp < 0x800) {
            out += char(0xc0 | (cp >> 6));
            out += char(0x80 | (cp & 0x3f));
          } else {
            out += char(0xe0 | (cp >> 12));
            out += char(0x80 | ((cp >> 6) & 0x3f));
            out += char(0x80 | (cp & 0x3f));
          }
          break;
        }
        default:
          out += e;
      }
    }
    if (i_ >= t_.size()) fail("unterminated string");
    ++i_;
    return out;
  }
  Value array() {
    ++i_;
    Value v = Value::array();
    ws();
    if (eat("]")) return v;
    for (;;) {
      v.push(value());
      ws();
      if (eat("]")) return v;
      if (!eat(",")) fail("expected , or ]");
    }
  }
  Value object() {
    ++i_;
    Value v = Value::object();
    ws();
    if (eat("}")) return v;
    for (;;) {
      ws();
      if (i_ >= t_.size() || t_[i_] != '"') fail("expected a key");
      std::string k = string();
      ws();
      if (!eat(":")) fail("expected :");
      v.set(k, value());
      ws();
      if (eat("}")) return v;
      if (!eat(",")) fail("expected , or }");
    }
  }
  const std::string& t_;
  size_t i_ = 0;
};

}  // namespace

Value parse(const std::string& text) {
  return Parser(text).document();
}

}  // namespace jsched::json
