// Embind (conventions.h): the prepared chain solver. It owns one buffer in the chain
// layout of chain_job.h, sized for its n joints at construction (room for n
// limits). JS writes the options once (new, setOptions: validated and
// prepared, ikpd::Prepare) and then only the per-frame inputs (target, pole,
// parentRotation, joints) before each solve() (ikpd::SolveChain: the frame's
// checks only).
#include <algorithm>
#include <cstring>
#include <span>

#include "chain_job.h"
#include "../conventions.h"
#include "ikpd/buffer.h"
#include "ikpd/ik/chain.h"
#include "../packed.h"

namespace ikpd::bindings {
namespace {

class ChainSolver {
  static constexpr Status kNoStorage = Error("jointCount: out of memory");

 public:
  // n in [2, kMaxChainJoints] (JS checks it; other counts make every solve
  // fail). When the storage cannot be allocated, pointer() is 0 (JS then frees
  // this object and throws "jointCount: out of WASM memory").
  explicit ChainSolver(std::uint32_t n) : n_(n <= kMaxChainJoints ? n : 0) {
    if (!buffer_.Allocate(kChainJobFloats + n_ * (7 + kLimitFloats + 7) + 3) || !joints_.Allocate(n_) ||
        !limits_.Allocate(n_) || !pending_.Allocate(n_) || !sample_.Allocate(n_) || !output_.Allocate(n_)) {
      buffer_ = {};
      n_ = 0;
      return;
    }
    std::memcpy(buffer_.data(), Defaults<ChainJob>(), sizeof(float) * kChainJobFloats);
    ReadJob(buffer_.data(), job_);
    job_.result = &result_;
    (void)Prepare(job_.settings, &setup_);  // the defaults: always valid
    for (std::uint32_t i = 0; i < n_; ++i) sample_[i] = {glm::vec3(static_cast<float>(i), 0.0f, 0.0f), glm::quat(1, 0, 0, 0)};
  }
  ChainSolver(const ChainSolver&) = delete;
  ChainSolver& operator=(const ChainSolver&) = delete;

  std::uintptr_t pointer() const { return reinterpret_cast<std::uintptr_t>(buffer_.data()); }

  // Reads the options and, when m >= 0, m limits from the buffer (m < 0 keeps
  // the current limits); keeps them when they validate (against a straight
  // sample chain of n joints).
  std::uintptr_t setOptions(int m) {
    if (buffer_.empty()) return ToResult(kNoStorage);
    if (m > static_cast<int>(n_)) return ToResult(Error("limits: more entries than joints"));
    ChainJob job = job_;
    ReadJob<FieldSet::kOptions>(buffer_.data(), job);
    // The limits to check, in pending_: the current ones (m < 0) or m read from the buffer.
    std::size_t count = job_.settings.limits.size();
    std::copy(job_.settings.limits.begin(), job_.settings.limits.end(), pending_.begin());
    if (m >= 0) {
      count = static_cast<std::size_t>(m);
      const float* p = buffer_.data() + kChainJobFloats + 7 * n_;
      for (std::size_t i = 0; i < count; ++i, p += kLimitFloats) ReadLimit(p, pending_[i]);
    }
    const std::span<const JointLimit> limits(pending_.data(), count);
    ChainJob check = job;
    check.frame.joints = std::span<const Transform>(sample_.data(), n_);
    check.settings.limits = limits;
    check.frame.target = glm::vec3(1.0f, 1.0f, 0.0f);
    check.frame.pole.reset();
    check.frame.parentRotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    check.output = std::span<Transform>(output_.data(), n_);
    check.result = nullptr;
    if (const Status s = check.Validate(); !s) return ToResult(s);
    std::copy(limits.begin(), limits.end(), limits_.begin());
    job_ = job;
    job_.settings.limits = std::span<const JointLimit>(limits_.data(), count);
    (void)Prepare(job_.settings, &setup_);  // validated above
    return 0;
  }

  // Reads the per-frame inputs and joints, solves with the cached options,
  // writes the output joints and the summary.
  std::uintptr_t solve() {
    if (buffer_.empty()) return ToResult(kNoStorage);
    float* f = buffer_.data();
    ReadJob<FieldSet::kInputs>(f, job_);
    const float* p = f + kChainJobFloats;
    ReadTransforms(p, joints_.data(), n_);
    job_.frame.joints = std::span<const Transform>(joints_.data(), n_);
    const Status s = SolveChain(setup_, job_.frame, std::span<Transform>(output_.data(), n_), &result_);
    if (s) WriteChainResult(f + kChainJobFloats + n_ * (7 + kLimitFloats), output_.data(), n_, result_);
    return ToResult(s);
  }

 private:
  std::uint32_t n_;
  Buffer<float> buffer_;
  Buffer<Transform> joints_;
  Buffer<JointLimit> limits_;
  Buffer<JointLimit> pending_;  // setOptions' limits under test
  Buffer<Transform> sample_;    // a straight chain of n joints, for setOptions' check
  Buffer<Transform> output_;
  ChainJob job_;        // the options as read (and the last frame's inputs)
  ChainSetup setup_;    // job_'s settings, prepared by setOptions
  ChainResult result_{};
};

}  // namespace
}  // namespace ikpd::bindings

IKPD_BINDINGS(ik, chain_solver) {
  using ikpd::bindings::ChainSolver;
  emscripten::class_<ChainSolver>("ChainSolver")
      .class_function("create", &ikpd::bindings::Create<ChainSolver, std::uint32_t>, emscripten::allow_raw_pointers())
      .function("pointer", &ChainSolver::pointer)
      .function("setOptions", &ChainSolver::setOptions)
      .function("solve", &ChainSolver::solve);
}
