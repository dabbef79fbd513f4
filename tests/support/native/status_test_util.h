// Test helper shared by the native suites: checks a Status error's prefix
// (the parameter name every error starts with).
#pragma once

#include <string>

#include "ikpd/common.h"

namespace statustest {

// True when `s` is an error whose message starts with `prefix`.
inline bool StartsWith(const ikpd::Status& s, const char* prefix) {
  return s.error != nullptr && std::string(s.error).rfind(prefix, 0) == 0;
}

}  // namespace statustest
