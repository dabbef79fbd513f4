// Embind (conventions.h): the 2D tentacle (docs/ik/tentacle.md) as an Embind
// class owned by a JS handle. Its scalar options live in its own buffer
// (settings(), packed by the description in cpp/src/ik/fields.h).
#include <cstdint>
#include <span>

#include "../conventions.h"
#include "../../src/ik/fields.h"
#include "ikpd/ik/tentacle2d.h"

namespace ikpd::bindings {

// Tentacle2D: its scalar options in its own buffer (settings(), the
// layout of its description), the lengths[n] then, when hasLimits, limits[n] packed at offset.
class Tentacle2DHandle {
 public:
  std::uintptr_t Settings() const { return reinterpret_cast<std::uintptr_t>(settings_); }
  std::uintptr_t Reset(std::uintptr_t offset, std::uint32_t n, bool hasLimits) {
    const float* f = Floats(offset);
    Tentacle2DSettings s;
    ReadJob(settings_, s);
    s.lengths = std::span<const float>(f, n);
    if (hasLimits) s.limits = std::span<const float>(f + n, n);
    return ToResult(tentacle_.Reset(s));
  }
  std::uintptr_t SetAngles(std::uintptr_t offset, std::uint32_t n) {
    return ToResult(tentacle_.SetAngles(std::span<const float>(Floats(offset), n)));
  }
  std::uintptr_t Update(float x, float y) { return ToResult(tentacle_.Update({x, y})); }
  std::uint32_t Bones() const { return static_cast<std::uint32_t>(tentacle_.bones()); }
  int Unwinding() const { return tentacle_.unwinding() ? 1 : 0; }
  std::uintptr_t Positions() const { return reinterpret_cast<std::uintptr_t>(tentacle_.positions().data()); }
  std::uintptr_t Angles() const { return reinterpret_cast<std::uintptr_t>(tentacle_.angles().data()); }
  std::uintptr_t Lengths() const { return reinterpret_cast<std::uintptr_t>(tentacle_.lengths().data()); }
  std::uintptr_t Limits() const { return reinterpret_cast<std::uintptr_t>(tentacle_.limits().data()); }

 private:
  Tentacle2D tentacle_;
  alignas(16) double settings_[JobFloats<Tentacle2DSettings>()] = {};
};

}  // namespace ikpd::bindings

IKPD_BINDINGS(ik, tentacle) {
  using namespace emscripten;
  using namespace ikpd::bindings;
  class_<Tentacle2DHandle>("Tentacle2D")
      .class_function("create", &Create<Tentacle2DHandle>, allow_raw_pointers())
      .function("settings", &Tentacle2DHandle::Settings)
      .function("reset", +[](Tentacle2DHandle& t, std::uintptr_t offset, std::uint32_t n, int hasLimits) {
        return t.Reset(offset, n, hasLimits != 0);
      })
      .function("setAngles", &Tentacle2DHandle::SetAngles)
      .function("update", &Tentacle2DHandle::Update)
      .function("bones", &Tentacle2DHandle::Bones)
      .function("unwinding", &Tentacle2DHandle::Unwinding)
      .function("positions", &Tentacle2DHandle::Positions)
      .function("angles", &Tentacle2DHandle::Angles)
      .function("lengths", &Tentacle2DHandle::Lengths)
      .function("limits", &Tentacle2DHandle::Limits);
}
