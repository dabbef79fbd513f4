// Access to a prepared setup's derived settings, stored as bytes in the setup
// (TwoBoneSetup, AimSetup: the public headers do not see the kernels' types).
// The setups befriend this one template; each kernel names its pair
// (TwoBoneSetupAccess, AimSetupAccess).
#pragma once

#include <new>
#include <type_traits>

namespace ikpd {

template <class Setup, class Shared>
struct SetupAccess {
  // The derived settings of a prepared setup (valid only if it is prepared).
  static const Shared& SharedOf(const Setup& setup) {
    static_assert(sizeof(Shared) <= sizeof(Setup::derived_) && alignof(Shared) <= 16 && std::is_trivially_copyable_v<Shared>);
    return *std::launder(reinterpret_cast<const Shared*>(setup.derived_));
  }
  // Makes `setup` prepared with `shared` and the settings it was derived from.
  template <class Settings>
  static void Store(Setup& setup, const Shared& shared, const Settings& settings) {
    new (setup.derived_) Shared(shared);
    setup.settings_ = settings;
    setup.prepared_ = true;
  }
};

}  // namespace ikpd
