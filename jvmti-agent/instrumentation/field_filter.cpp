#include "jvmti-agent/instrumentation/field_filter.h"

#include "classfile/class_file.h"
#include "jvmti-agent/instrumentation/class_filter.h"

namespace jsched::agent {

namespace {

thread_local FieldFilter::Context t_context;

// The bytes of class `owner` as the context's loader finds them, or empty.
std::string resource_bytes(JNIEnv* env, jobject loader, const std::string& owner) {
  std::string out;
  jclass cl = env->FindClass("java/lang/ClassLoader");
  if (cl == nullptr) return env->ExceptionClear(), out;
  jstring path = env->NewStringUTF((owner + ".class").c_str());
  jobject in = nullptr;
  if (loader != nullptr) {
    jmethodID get =
        env->GetMethodID(cl, "getResourceAsStream", "(Ljava/lang/String;)Ljava/io/InputStream;");
    in = env->CallObjectMethod(loader, get, path);
  } else {
    jmethodID get = env->GetStaticMethodID(cl, "getSystemResourceAsStream",
                                           "(Ljava/lang/String;)Ljava/io/InputStream;");
    in = env->CallStaticObjectMethod(cl, get, path);
  }
  if (in != nullptr && !env->ExceptionCheck()) {
    jclass is = env->GetObjectClass(in);
    auto arr = static_cast<jbyteArray>(
        env->CallObjectMethod(in, env->GetMethodID(is, "readAllBytes", "()[B")));
    if (arr != nullptr && !env->ExceptionCheck()) {
      out.resize(size_t(env->GetArrayLength(arr)));
      env->GetByteArrayRegion(arr, 0, jsize(out.size()), reinterpret_cast<jbyte*>(out.data()));
    }
    env->ExceptionClear();
    env->CallVoidMethod(in, env->GetMethodID(is, "close", "()V"));
  }
  env->ExceptionClear();
  return out;
}

}  // namespace

FieldFilter::Scope::Scope(JNIEnv* env, jobject loader, std::string_view name, cf::Bytes bytes)
    : saved_(std::move(t_context)) {
  t_context = Context{env, loader, std::string(name), bytes};
}

FieldFilter::Scope::~Scope() {
  t_context = std::move(saved_);
}

std::optional<FieldFilter::Declared> FieldFilter::read(const std::string& owner) const {
  const Context& c = t_context;
  std::string fetched;
  cf::Bytes bytes;
  if (owner == c.name) {
    bytes = c.bytes;
  } else {
    // accesses=all asks about JDK classes' reads too: reading JDK class files through Java
    // while a JDK class loads can load classes circularly (javac fully instrumented met
    // ClassCircularityError). There only what is already known is used.
    if (c.env == nullptr) return std::nullopt;
    if (accesses_ == rw::Accesses::All && (jdk_package(c.name) || jdk_package(owner)))
      return std::nullopt;
    fetched = resource_bytes(c.env, c.loader, owner);
    if (fetched.empty()) return std::nullopt;
    bytes = cf::Bytes(reinterpret_cast<const uint8_t*>(fetched.data()), fetched.size());
  }
  try {
    cf::ClassFile f = cf::ClassFile::parse(bytes);
    Declared d;
    for (const cf::Member& m : f.fields) {
      d.fields[std::string(f.member_name(m))] = m.access & cf::acc::kVolatile ? Kind::Volatile
                                                : m.access & cf::acc::kFinal  ? Kind::Final
                                                                              : Kind::Plain;
    }
    if (f.super_class != 0) d.super = std::string(f.cp.class_name(f.super_class));
    return d;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

FieldFilter::Kind FieldFilter::kind_of(std::string owner, const std::string& name) const {
  for (int depth = 0; depth < 32 && !owner.empty(); ++depth) {
    std::shared_ptr<const Declared> d;
    bool cached = false;
    {
      std::lock_guard<std::mutex> g(mu_);
      if (auto it = cache_.find(owner); it != cache_.end()) d = it->second, cached = true;
    }
    if (!cached) {
      if (std::optional<Declared> got = read(owner))
        d = std::make_shared<const Declared>(std::move(*got));
      // The class being loaded is only cached once read from its own bytes.
      std::lock_guard<std::mutex> g(mu_);
      if (d || owner != t_context.name) cache_.emplace(owner, d);
    }
    if (!d) return Kind::Unknown;
    if (auto f = d->fields.find(name); f != d->fields.end()) return f->second;
    owner = d->super;  // inherited (an interface's constant is final, never volatile)
  }
  return Kind::Unknown;
}

rw::AccessDecision FieldFilter::decide(const rw::SiteInfo& s) const {
  rw::AccessDecision d;
  // A static initializer's plain accesses cannot race: no other thread sees the class before
  // it ends (JVMS 5.5). As points they would only let a thread that needs the class block
  // inside the JVM, where the model sees it late, and the schedule would not repeat.
  if (s.method == "<clinit>" && accesses_ != rw::Accesses::Volatile) {
    const Kind k = rw::is_field_access(s.kind) ? kind_of(std::string(s.owner), std::string(s.name))
                                               : Kind::Plain;  // an array element
    if (k == Kind::Plain || k == Kind::Final) {
      d.kind = rw::AccessDecision::Skip;
      return d;
    }
  }
  if (!rw::is_field_access(s.kind)) return d;
  if (accesses_ == rw::Accesses::All) {
    const bool read = s.kind == rw::SiteKind::GetField || s.kind == rw::SiteKind::GetStatic;
    if (read && kind_of(std::string(s.owner), std::string(s.name)) == Kind::Final)
      d.kind = rw::AccessDecision::Skip;
    return d;
  }
  if (!jdk_too_ && jdk_package(s.cls)) {
    d.kind = rw::AccessDecision::Skip;
    return d;
  }
  const Kind k = kind_of(std::string(s.owner), std::string(s.name));
  if (k == Kind::Plain || k == Kind::Final) d.kind = rw::AccessDecision::Skip;
  return d;
}

}  // namespace jsched::agent
