// Fuzzes TwoBoneJob (docs/ik/two-bone.md): finite input → finite, unit, consistent limb or
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
  const bool ran = RunChecked(job, [&] {
    return SameBytes(result.root, untouched.root) && SameBytes(result.mid, untouched.mid) &&
           SameBytes(result.end, untouched.end) && result.distance == untouched.distance;
  });
  if (!ran) return 0;
  CheckTwoBoneResult(job, result);
  return 0;
}
