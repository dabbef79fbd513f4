#include "ikpd/ik/aim.h"

namespace ikpd {

Status AimJob::Validate() const { return Ok(); }

Status AimJob::Run() const { return Error("solveAim: not implemented yet"); }

}  // namespace ikpd
