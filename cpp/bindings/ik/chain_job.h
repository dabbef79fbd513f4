// The packed chain layout shared by solveChain (chain.cc) and ChainSolver
// (chain_solver.cc), in floats, for n joints and m limits:
//   the packed ChainJob (packed.h, kChainJobFloats)
//   | joints[n × 7] (position, rotation [x, y, z, w])
//   | limits[m × 11]: kind (0 none, 1 cone, 2 euler) angle axis(3) min(3) max(3)
//   | output[n × 7] | the ChainResult (its description in cpp/src/ik/fields.h).
// solveChain packs limits right after the joints (m of them); a ChainSolver
// keeps room for n.
#pragma once

#include <cstddef>

#include "../conventions.h"
#include "ikpd/ik/chain.h"
#include "../packed.h"
#include "solvers.h"

namespace ikpd::bindings {

constexpr std::size_t kMaxChainJoints = 128;
constexpr std::size_t kChainJobFloats = JobFloats<ChainJob>();
constexpr std::size_t kLimitFloats = 11;

inline void ReadLimit(const float* p, JointLimit& l) {
  l.kind = static_cast<JointLimit::Kind>(static_cast<int>(p[0]));
  l.angle = p[1];
  l.axis = ReadVec3(p + 2);
  l.min = ReadVec3(p + 5);
  l.max = ReadVec3(p + 8);
}

// Writes n solved joints, then the result summary, at o.
inline void WriteChainResult(float* o, const Transform* output, std::size_t n, const ChainResult& r) {
  for (std::size_t i = 0; i < n; ++i, o += 7) WriteTransform(o, output[i]);
  WriteJob(o, r);
}

}  // namespace ikpd::bindings
