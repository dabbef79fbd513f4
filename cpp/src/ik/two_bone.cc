#include "ikpd/ik/two_bone.h"

namespace ikpd {

Status TwoBoneJob::Validate() const { return Ok(); }

Status TwoBoneJob::Run() const { return Error("solveTwoBone: not implemented yet"); }

}  // namespace ikpd
