#pragma once

namespace ikpd {
// Library version, "major.minor.patch"; the npm package reports the same string.
const char* Version();
}  // namespace ikpd
