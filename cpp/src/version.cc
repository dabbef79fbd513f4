#include "ikpd/version.h"

namespace ikpd {
const char* Version() { return "0.1.0"; }
}  // namespace ikpd
