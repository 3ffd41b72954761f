// A small JSON reader and writer for the runner's files (agent reports, runs.jsonl).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace jsched::json {

class Value {
 public:
  enum Kind { Null, Bool, Number, String, Array, Object };
  Value() = default;
  static Value boolean(bool b);
  static Value number(double d);
  static Value string(std::string s);
  static Value array();
  static Value object();

  Kind kind() const { return kind_; }
  bool is(Kind k) const { return kind_ == k; }
  bool as_bool() const { return b_; }
  double as_number() const { return d_; }
  uint64_t as_u64() const { return uint64_t(d_); }
  const std::string& as_string() const { return s_; }
  const std::vector<Value>& items() const { return items_; }
  const std::map<std::string, Value>& fields() const { return fields_; }

  // Object access: a missing key reads as Null.
  const Value& operator[](const std::string& key) const;
  std::string str(const std::string& key, const std::string& dflt = "") const;
  double num(const std::string& key, double dflt = 0) const;
  Value& set(const std::string& key, Value v);
  Value& push(Value v);

  std::string dump() const;  // compact, keys sorted

 private:
  Kind kind_ = Null;
  bool b_ = false;
  double d_ = 0;
  std::string s_;
  std::vector<Value> items_;
  std::map<std::string, Value> fields_;
};

class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

Value parse(const std::string& text);  // throws ParseError with the offset
std::string quote(const std::string& s);

}  // namespace jsched::json
