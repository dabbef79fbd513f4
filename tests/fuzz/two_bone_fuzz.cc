// Fuzzes TwoBoneJob (SPEC §3): finite input → finite, unit, consistent limb or
// a named error (output untouched). Invariants: the root stays put, bone
// lengths are preserved (or stretched within maxStretch), forward axes point
// at the child (weight 1), the mid angle stays within [minAngle, maxAngle],
// `distance`/`reached` match the output, and a reachable target is reached.
#include "two_bone_input.h"

using namespace ikpd;
using namespace ikpd::fuzz;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Input in(data, size);
  TwoBoneJob job;
  FillTwoBoneJob(in, job);
  TraceTwoBoneJob(job);

  TwoBoneResult result;
  result.root.position = glm::vec3(7.0f);
  TwoBoneResult untouched = result;
  job.result = &result;
  const Status validated = job.Validate();
  const Status status = job.Run();
  // Run() validates first (same error); it may also fail later, e.g. when a result would overflow float.
  FUZZ_CHECK(validated.ok() || (!status.ok() && std::strcmp(status.error, validated.error) == 0),
             "Validate() failed (%s) but Run() did not fail the same way", validated.error);
  if (!status.ok()) {
    FUZZ_CHECK(NamesParameter(status), "error does not start with a parameter name: %s", status.error);
    FUZZ_CHECK(SameBytes(result.root, untouched.root) && SameBytes(result.mid, untouched.mid) &&
                   SameBytes(result.end, untouched.end) && result.distance == untouched.distance,
               "output written on error: %s", status.error);
    return 0;
  }
  CheckTwoBoneResult(job, result);
  return 0;
}
