// Test helpers shared by the native suites: a Status error's prefix (the
// parameter name every error starts with) and a Status as text.
#pragma once

#include <string>

#include "ikpd/common.h"

namespace statustest {

// True when `s` is an error whose message starts with `prefix`.
inline bool StartsWith(const ikpd::Status& s, const char* prefix) {
  return s.error != nullptr && std::string(s.error).rfind(prefix, 0) == 0;
}

// "ok", or the error text: compares a Status as a string.
inline std::string Text(const ikpd::Status& s) { return s ? "ok" : s.error; }

}  // namespace statustest
