// Embind (conventions.h): the inertializer (docs/pd/inertializer.md). The handle owns one
// float buffer that JS reads and writes through Float32Array views (7 floats per joint:
// tx ty tz qx qy qz qw): input (the new pose now) | output (the pose shown) | previous
// (the new pose one update's dt earlier) | 6 floats for offsetAt. A frame is one call,
// update(dt), with no allocation; every call returns 0 or a "parameter: reason" text.
#include <utility>
#include <vector>

#include "../conventions.h"
#include "ikpd/pd/inertializer.h"

namespace ikpd::bindings {
namespace {

constexpr std::size_t kJointFloats = 7;

void ToTransforms(const float* f, std::vector<Transform>& out) {
  for (Transform& t : out) {
    t.position = {f[0], f[1], f[2]};
    t.rotation = glm::quat(f[6], f[3], f[4], f[5]);
    f += kJointFloats;
  }
}

void ToFloats(const std::vector<Transform>& in, float* f) {
  for (const Transform& t : in) {
    f[0] = t.position.x, f[1] = t.position.y, f[2] = t.position.z;
    f[3] = t.rotation.x, f[4] = t.rotation.y, f[5] = t.rotation.z, f[6] = t.rotation.w;
    f += kJointFloats;
  }
}

}  // namespace

struct InertializerHandle {
  // Sized once (the only allocation); JS checked jointCount and the headroom (Create below).
  explicit InertializerHandle(std::size_t n)
      : io(3 * kJointFloats * n + 6, 0.0f), input(n), output(n), shown(n), previous(n) {
    (void)core.Configure(n);
    for (std::size_t j = 0; j < 3 * n; ++j) io[kJointFloats * j + 6] = 1.0f;  // identity rotations
  }

  float* At(int part) { return io.data() + part * kJointFloats * input.size(); }

  // input → output; the output before it is kept as the shown pose one frame ago.
  std::uintptr_t Update(double dt) {
    ToTransforms(At(0), input);
    const bool step = dt > 0.0;  // update(0) keeps the pose one frame ago and its dt
    if (step) std::swap(output, shown);
    const Status st = core.Update(dt, input, output);
    if (!st) {
      if (step) std::swap(output, shown);
      return ToResult(st);
    }
    ToFloats(output, At(1));
    if (step) lastDt = dt;
    return 0;
  }

  // From the output view (and, with `velocity` after an update, the output one update
  // earlier) to the input view (and the previous view, the same dt earlier).
  std::uintptr_t Transition(double halfLife, bool velocity) {
    velocity = velocity && lastDt > 0.0;
    std::vector<Transform>& from = output;
    ToTransforms(At(1), from);  // the view is the shown pose (equal unless JS wrote it)
    ToTransforms(At(0), input);
    if (velocity) ToTransforms(At(2), previous);
    pd::InertializerTransition t;
    t.from = from;
    t.to = input;
    if (velocity) t.fromPrevious = shown, t.toPrevious = previous, t.dt = lastDt;
    t.halfLife = halfLife;
    return ToResult(core.Transition(t));
  }

  // io tail = the joint's rotation offset (scaled angle-axis) and translation offset.
  std::uintptr_t Offset(int joint) {
    glm::dvec3 r, p;
    const Status st = core.OffsetAt(static_cast<std::size_t>(joint < 0 ? input.size() : joint), &r, &p);
    if (!st) return ToResult(st);
    float* f = At(3);
    f[0] = static_cast<float>(r.x), f[1] = static_cast<float>(r.y), f[2] = static_cast<float>(r.z);
    f[3] = static_cast<float>(p.x), f[4] = static_cast<float>(p.y), f[5] = static_cast<float>(p.z);
    return 0;
  }

  void Reset() {
    core.Reset();
    lastDt = 0.0;
  }

  pd::Inertializer core;
  std::vector<float> io;
  std::vector<Transform> input, output, shown, previous;
  double lastDt = 0.0;  // the last update's dt; 0: none since construction or reset
};

}  // namespace ikpd::bindings

// In the rig module (CMakeLists.txt: the default module has no room), bound with the rig area.
IKPD_BINDINGS(rig, inertializer) {
  using namespace ikpd::bindings;
  emscripten::class_<InertializerHandle>("InertializerHandle")
      .function("buffer", +[](InertializerHandle& h) { return reinterpret_cast<std::uintptr_t>(h.io.data()); })
      .function("update", &InertializerHandle::Update)
      .function("transition", +[](InertializerHandle& h, double halfLife, int velocity) {
        return h.Transition(halfLife, velocity != 0);
      })
      .function("offset", &InertializerHandle::Offset)
      .function("elapsed", +[](const InertializerHandle& h) { return h.core.elapsed(); })
      .function("reset", &InertializerHandle::Reset);
  // JS: `wasm.PdInertializer(jointCount)`, null when WASM memory cannot hold it (conventions.h Create).
  emscripten::function("PdInertializer", +[](int n) -> InertializerHandle* {
    const std::size_t bytes = static_cast<std::size_t>(n) * (3 * kJointFloats * sizeof(float) + 4 * sizeof(ikpd::Transform) +
                                                             12 * sizeof(double)) + 64;
    return n >= 1 && n <= 65536 && Headroom(2 * bytes) ? Create<InertializerHandle>(static_cast<std::size_t>(n)) : nullptr;
  }, emscripten::allow_raw_pointers());
}
