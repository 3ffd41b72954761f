#include "classfile/class_source.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

#include "classfile/zip_reader.h"

namespace jsched::cf {

namespace fs = std::filesystem;

namespace {

bool ends_with(const std::string& s, const char* suffix) {
  size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

bool read_file(const std::string& path, std::vector<uint8_t>& out, std::string& err) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    err = std::string("cannot open: ") + std::strerror(errno);
    return false;
  }
  in.seekg(0, std::ios::end);
  auto size = in.tellg();
  if (size < 0) {
    err = "cannot determine size";
    return false;
  }
  in.seekg(0);
  out.resize(size_t(size));
  if (size > 0 && !in.read(reinterpret_cast<char*>(out.data()), size)) {
    err = "read error";
    return false;
  }
  return true;
}

void visit_zip(const std::string& path, Bytes zip, const ClassVisitor& v) {
  try {
    ZipReader z(zip);
    for (const ZipReader::Entry& e : z.entries()) {
      if (!ends_with(e.name, ".class")) continue;
      std::string origin = path + "!" + e.name;
      std::vector<uint8_t> bytes;
      try {
        bytes = z.read(e);
      } catch (const ZipError& err) {
        v.on_error(origin, err.what());
        continue;
      }
      v.on_class(origin, bytes);
    }
  } catch (const ZipError& err) {
    v.on_error(path, err.what());
  }
}

void visit_file(const std::string& path, const ClassVisitor& v) {
  std::vector<uint8_t> data;
  std::string err;
  if (!read_file(path, data, err)) {
    v.on_error(path, err);
    return;
  }
  if (ends_with(path, ".jmod")) {
    if (data.size() < 4 || data[0] != 'J' || data[1] != 'M') {
      v.on_error(path, "not a jmod file (missing JM header)");
      return;
    }
    visit_zip(path, Bytes(data).subspan(4), v);
  } else if (ends_with(path, ".jar") || ends_with(path, ".zip")) {
    visit_zip(path, data, v);
  } else {
    v.on_class(path, data);
  }
}

}  // namespace

void visit_classes(const std::string& path, const ClassVisitor& v) {
  std::error_code ec;
  auto st = fs::status(path, ec);
  if (ec || !fs::exists(st)) {
    v.on_error(path, "no such file or directory");
    return;
  }
  if (!fs::is_directory(st)) {
    visit_file(path, v);
    return;
  }
  std::vector<std::string> files;
  for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    std::string p = it->path().string();
    if (ends_with(p, ".class") || ends_with(p, ".jar") || ends_with(p, ".jmod")) {
      files.push_back(std::move(p));
    }
  }
  if (ec) v.on_error(path, "cannot list directory: " + ec.message());
  std::sort(files.begin(), files.end());
  for (const std::string& f : files) visit_file(f, v);
}

}  // namespace jsched::cf
