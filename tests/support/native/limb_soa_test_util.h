// The per-item fields the two-bone and pseudo three-bone batch jobs share
// (the limb's joints, target, pole, weight and the limb's outputs) as
// structure-of-arrays vectors for n items, outputs filled with -7 so a field
// left unwritten shows, and Wire, which points a batch job at them.
#pragma once

#include <cstddef>
#include <vector>

namespace batchtest {

struct LimbSoa {
  explicit LimbSoa(std::size_t n)
      : rootPosition(3 * n), rootRotation(4 * n), midPosition(3 * n), midRotation(4 * n), endPosition(3 * n),
        endRotation(4 * n), target(3 * n), pole(3 * n), weight(n), outRootRotation(4 * n, -7.0f),
        outMidPosition(3 * n, -7.0f), outMidRotation(4 * n, -7.0f), outEndPosition(3 * n, -7.0f),
        outEndRotation(4 * n, -7.0f), outReached(n, -7.0f), outDistance(n, -7.0f) {}

  std::vector<float> rootPosition, rootRotation, midPosition, midRotation, endPosition, endRotation, target, pole,
      weight;
  std::vector<float> outRootRotation, outMidPosition, outMidRotation, outEndPosition, outEndRotation, outReached,
      outDistance;

  // Points the limb fields of `job` (a TwoBoneBatchJob or PseudoThreeBoneBatchJob) at these vectors.
  template <class BatchJob>
  void Wire(BatchJob& job) {
    job.count = weight.size();
    job.rootPosition = rootPosition.data();
    job.rootRotation = rootRotation.data();
    job.midPosition = midPosition.data();
    job.midRotation = midRotation.data();
    job.endPosition = endPosition.data();
    job.endRotation = endRotation.data();
    job.target = target.data();
    job.pole = pole.data();
    job.weight = weight.data();
    job.outRootRotation = outRootRotation.data();
    job.outMidPosition = outMidPosition.data();
    job.outMidRotation = outMidRotation.data();
    job.outEndPosition = outEndPosition.data();
    job.outEndRotation = outEndRotation.data();
    job.outReached = outReached.data();
    job.outDistance = outDistance.data();
  }
};

}  // namespace batchtest
