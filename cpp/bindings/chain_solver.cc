// Embind (flat.h): the prepared chain solver. It owns one buffer in the chain
// layout of chain_job.h, sized for its n joints at construction (room for n
// limits). JS writes the options once (new, setOptions) and then only the
// per-frame inputs (target, pole, parentRotation, joints) before each solve().
#include <algorithm>
#include <cstring>
#include <span>
#include <vector>

#include "chain_job.h"
#include "flat.h"
#include "ikpd/ik/chain.h"
#include "job_fields.h"

namespace ikpd::bindings {
namespace {

class ChainSolver {
 public:
  // n in [2, kMaxChainJoints] (JS checks it; other counts make every solve fail).
  explicit ChainSolver(std::uint32_t n)
      : n_(n <= kMaxChainJoints ? n : 0),
        buffer_(kChainJobFloats + n_ * (7 + kLimitFloats + 7) + 3, 0.0f),
        joints_(n_),
        limits_(n_),
        output_(n_) {
    std::memcpy(buffer_.data(), Defaults<ChainJob>(), sizeof(float) * kChainJobFloats);
    ReadJob(buffer_.data(), job_);
    job_.result = &result_;
  }
  ChainSolver(const ChainSolver&) = delete;
  ChainSolver& operator=(const ChainSolver&) = delete;

  std::uintptr_t pointer() const { return reinterpret_cast<std::uintptr_t>(buffer_.data()); }

  // Reads the options and, when m >= 0, m limits from the buffer (m < 0 keeps
  // the current limits); keeps them when they validate (against a straight
  // sample chain of n joints).
  std::uintptr_t setOptions(int m) {
    if (m > static_cast<int>(n_)) return ToResult(Error("limits: more entries than joints"));
    ChainJob job = job_;
    ReadJob(buffer_.data(), job, Which::kOptions);
    std::vector<JointLimit> limits(job_.limits.begin(), job_.limits.end());
    if (m >= 0) {
      limits.resize(static_cast<std::size_t>(m));
      const float* p = buffer_.data() + kChainJobFloats + 7 * n_;
      for (JointLimit& l : limits) {
        ReadLimit(p, l);
        p += kLimitFloats;
      }
    }
    std::vector<Transform> sample(n_);
    for (std::uint32_t i = 0; i < n_; ++i) sample[i] = {glm::vec3(static_cast<float>(i), 0.0f, 0.0f), glm::quat(1, 0, 0, 0)};
    ChainJob check = job;
    check.joints = sample;
    check.limits = limits;
    check.target = glm::vec3(1.0f, 1.0f, 0.0f);
    check.pole.reset();
    check.parentRotation = glm::quat(1.0f, 0.0f, 0.0f, 0.0f);
    check.output = output_;
    check.result = nullptr;
    if (const Status s = check.Validate(); !s) return ToResult(s);
    std::copy(limits.begin(), limits.end(), limits_.begin());
    job_ = job;
    job_.limits = std::span<const JointLimit>(limits_.data(), limits.size());
    return 0;
  }

  // Reads the per-frame inputs and joints, solves with the cached options,
  // writes the output joints and the summary.
  std::uintptr_t solve() {
    float* f = buffer_.data();
    ReadJob(f, job_, Which::kInputs);
    const float* p = f + kChainJobFloats;
    ReadTransforms(p, joints_.data(), n_);
    job_.joints = joints_;
    job_.output = output_;
    const Status s = job_.Run();
    if (s) WriteChainResult(f + kChainJobFloats + n_ * (7 + kLimitFloats), output_.data(), n_, result_);
    return ToResult(s);
  }

 private:
  std::uint32_t n_;
  std::vector<float> buffer_;
  std::vector<Transform> joints_;
  std::vector<JointLimit> limits_;
  std::vector<Transform> output_;
  ChainJob job_;
  ChainResult result_{};
};

}  // namespace
}  // namespace ikpd::bindings

EMSCRIPTEN_BINDINGS(ikpd_chain_solver) {
  using ikpd::bindings::ChainSolver;
  emscripten::class_<ChainSolver>("ChainSolver")
      .constructor<std::uint32_t>()
      .function("pointer", &ChainSolver::pointer)
      .function("setOptions", &ChainSolver::setOptions)
      .function("solve", &ChainSolver::solve);
}
