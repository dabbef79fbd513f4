// ikpd_golden: writes or checks the golden files (see golden.h).
//   ikpd_golden --write DIR   regenerate DIR/<name>.json (npm run golden)
//   ikpd_golden --check DIR   fail when DIR/<name>.json differs from the native
//                             build by more than the tolerance (CTest Golden.UpToDate)
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "golden.h"

namespace ikpd::golden {
namespace {

struct Entry {
  const char* name;
  Generator generate;
};

std::vector<Entry>& Registry() {
  static std::vector<Entry> entries;
  return entries;
}

std::string Generate(const Entry& e) {
  Json json;
  json.BeginObject().Key("cases").BeginArray().Newline();
  e.generate(json);
  json.Newline().EndArray().EndObject().Newline();
  return json.str();
}

bool IsNumberStart(const std::string& s, std::size_t i) {
  return std::isdigit(static_cast<unsigned char>(s[i])) ||
         (s[i] == '-' && i + 1 < s.size() && std::isdigit(static_cast<unsigned char>(s[i + 1])));
}

// Compares two JSON texts token by token: numbers within 1e-5·max(1, |expected|),
// everything else exactly. Returns an empty string or a description of the first difference.
std::string Compare(const std::string& expected, const std::string& actual) {
  std::size_t i = 0, j = 0;
  while (i < expected.size() && j < actual.size()) {
    if (IsNumberStart(expected, i) && IsNumberStart(actual, j)) {
      char* end_e = nullptr;
      char* end_a = nullptr;
      const double e = std::strtod(expected.c_str() + i, &end_e);
      const double a = std::strtod(actual.c_str() + j, &end_a);
      if (std::fabs(e - a) > 1e-5 * std::max(1.0, std::fabs(e))) {
        return "number " + std::to_string(a) + " (native) vs " + std::to_string(e) +
               " (file) at offset " + std::to_string(i) + ": " + expected.substr(i > 60 ? i - 60 : 0, 120);
      }
      i = static_cast<std::size_t>(end_e - expected.c_str());
      j = static_cast<std::size_t>(end_a - actual.c_str());
      continue;
    }
    if (expected[i] != actual[j]) {
      return "text differs at offset " + std::to_string(i) + ": " + expected.substr(i > 60 ? i - 60 : 0, 120);
    }
    ++i;
    ++j;
  }
  if (i != expected.size() || j != actual.size()) return "length differs";
  return {};
}

}  // namespace

bool Register(const char* name, Generator generate) {
  Registry().push_back({name, generate});
  return true;
}

}  // namespace ikpd::golden

int main(int argc, char** argv) {
  using namespace ikpd::golden;
  if (argc != 3 || (std::strcmp(argv[1], "--write") != 0 && std::strcmp(argv[1], "--check") != 0)) {
    std::cerr << "usage: ikpd_golden --write|--check DIR\n";
    return 2;
  }
  const bool write = std::strcmp(argv[1], "--write") == 0;
  const std::string dir = argv[2];
  int failures = 0;
  for (const Entry& e : Registry()) {
    const std::string path = dir + "/" + e.name + ".json";
    const std::string text = Generate(e);
    if (write) {
      std::ofstream(path, std::ios::binary) << text;
      std::cout << "wrote " << path << " (" << text.size() << " bytes)\n";
      continue;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::cerr << path << ": missing; run `npm run golden` and commit it\n";
      ++failures;
      continue;
    }
    std::stringstream file;
    file << in.rdbuf();
    const std::string diff = Compare(file.str(), text);
    if (!diff.empty()) {
      std::cerr << path << ": out of date (" << diff << ")\n"
                << "  If the native change is intended, run `npm run golden` and commit the file.\n";
      ++failures;
    } else {
      std::cout << path << ": matches the native build\n";
    }
  }
  return failures == 0 ? 0 : 1;
}
