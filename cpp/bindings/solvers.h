// The single-item solvers' results described once, like their jobs
// (job_fields.h, role kOutput): JobFields<TwoBoneResult> etc. name each
// result field, its kind and (from the order) its float offset. That one
// description drives
//   - WriteJob (job_fields.h), which packs a result for JS (single calls in ik.cc and
//     chain.cc, prepared solvers in solvers.cc, the chain's summary after its
//     joints in chain_job.h),
//   - the "name.result" texts in jobDescriptions, from which JS builds its
//     result readers (web/src/fields.js ResultLayout: ik.js, chain.js, solvers.js),
//   - the batches' out.* fields (batch.cc), which name the result field they carry.
// A solver's result is written at float offset kOut of its buffer (after the
// packed job).
#pragma once

#include <cstddef>

#include "flat.h"
#include "ikpd/ik/pseudo_three_bone.h"
#include "ikpd/ik/chain.h"
#include "ikpd/ik/two_bone.h"
#include "job_fields.h"

namespace ikpd::bindings {

constexpr std::size_t kOut = 64;

// The aim's result: its job writes a bare rotation (AimJob::result points at `rotation`).
struct AimResult {
  glm::quat rotation{1.0f, 0.0f, 0.0f, 0.0f};
};

template <>
struct JobFields<AimResult> {
  static constexpr const char* kName = "aim.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "rotation", &AimResult::rotation);
  }
};

template <>
struct JobFields<TwoBoneResult> {
  static constexpr const char* kName = "twoBone.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "root", &TwoBoneResult::root);
    f(Role::kOutput, "mid", &TwoBoneResult::mid);
    f(Role::kOutput, "end", &TwoBoneResult::end);
    f(Role::kOutput, "reached", &TwoBoneResult::reached);
    f(Role::kOutput, "distance", &TwoBoneResult::distance, kFinite);
  }
};

template <>
struct JobFields<PseudoThreeBoneResult> {
  static constexpr const char* kName = "pseudoThreeBone.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "root", &PseudoThreeBoneResult::root);
    f(Role::kOutput, "mid", &PseudoThreeBoneResult::mid);
    f(Role::kOutput, "end", &PseudoThreeBoneResult::end);
    f(Role::kOutput, "tip", &PseudoThreeBoneResult::tip);
    f(Role::kOutput, "reached", &PseudoThreeBoneResult::reached);
    f(Role::kOutput, "distance", &PseudoThreeBoneResult::distance, kFinite);
  }
};

// The chain's summary; its n solved joints precede it (chain_job.h).
template <>
struct JobFields<ChainResult> {
  static constexpr const char* kName = "chain.result";
  template <class F>
  static constexpr void Visit(F&& f) {
    f(Role::kOutput, "reached", &ChainResult::reached);
    f(Role::kOutput, "distance", &ChainResult::distance, kFinite);
    f(Role::kOutput, "iterations", &ChainResult::iterations, AtLeast(0.0));
  }
};

// Where a job writes its result: the struct itself, or the aim's rotation.
template <class Result>
Result* ResultTarget(Result& r) {
  return &r;
}
inline glm::quat* ResultTarget(AimResult& r) { return &r.rotation; }

}  // namespace ikpd::bindings
