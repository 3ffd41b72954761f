#include "runner/batch/class_path.h"

#include <filesystem>
#include <fstream>
#include <iterator>

#include "classfile/zip_reader.h"

namespace jsched::runner {

namespace {

namespace fs = std::filesystem;

std::vector<uint8_t> slurp_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(in)), {});
}

std::optional<std::vector<uint8_t>> from_jar(const fs::path& jar, const std::string& entry) {
  std::vector<uint8_t> bytes = slurp_bytes(jar);
  try {
    cf::ZipReader zip(cf::Bytes(bytes.data(), bytes.size()));
    for (const cf::ZipReader::Entry& e : zip.entries()) {
      if (e.name == entry) return zip.read(e);
    }
  } catch (const cf::ZipError&) {
  }
  return std::nullopt;
}

bool is_jar(const fs::path& p) {
  std::string ext = p.extension().string();
  return ext == ".jar" || ext == ".JAR" || ext == ".zip" || ext == ".ZIP";
}

}  // namespace

std::optional<std::vector<uint8_t>> read_from_class_path(const std::string& classpath,
                                                         const std::string& entry) {
  size_t start = 0;
  while (start <= classpath.size()) {
    size_t end = classpath.find(':', start);
    if (end == std::string::npos) end = classpath.size();
    std::string part = classpath.substr(start, end - start);
    start = end + 1;
    if (part.empty()) part = ".";
    std::error_code ec;
    if (part.size() >= 2 && part.compare(part.size() - 2, 2, "/*") == 0) {
      for (const auto& f : fs::directory_iterator(part.substr(0, part.size() - 1), ec)) {
        if (!is_jar(f.path())) continue;
        if (auto bytes = from_jar(f.path(), entry)) return bytes;
      }
    } else if (fs::is_directory(part, ec)) {
      if (fs::is_regular_file(fs::path(part) / entry, ec))
        return slurp_bytes(fs::path(part) / entry);
    } else if (fs::is_regular_file(part, ec)) {
      if (auto bytes = from_jar(part, entry)) return bytes;
    }
  }
  return std::nullopt;
}

}  // namespace jsched::runner
