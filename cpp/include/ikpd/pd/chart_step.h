// ikpd::pd — the spring step on chart coordinates, shared by every controller
// (docs/pd/pd.md). A chart maps a controller's value to up to 4 linear components:
// its error relative to the target at the end of the step.
#pragma once

#include "ikpd/pd/settings.h"
#include "ikpd/pd/spring.h"

namespace ikpd::pd {

// Up to 4 chart components of one spring (plain data; batches may use their own layout).
struct ChartState {
  double u[4] = {0, 0, 0, 0};         // error: state − target (at the end of the step)
  double w[4] = {0, 0, 0, 0};         // error velocity
  double integral[4] = {0, 0, 0, 0};  // ∫(target − state) dt (used when ki > 0)
};

// Advances n chart components over dt with the settings' integrator. The target
// moves at chart velocity q[] during the step and sits at the origin at its end.
// A discrete step longer than StepLimit is an error ("dt: ... stability region ...")
// or clamped (onUnstable) before anything changes. Leaves `state` untouched and
// returns an error when the result is not finite: "dt: the integrator diverged (...)".
Status ChartStep(const PdSettings& s, int n, double dt, const double* q, ChartState* state);

// ChartStep's 'exact' sub-steps under a finite maxVelocity, for a target held
// at the origin with no bias (no target velocity, no integral): the same
// arithmetic, the coefficients from `cache`. False, nothing changed, when the
// plan ends in a remainder step of another length ('classic' split): ChartStep then.
bool HeldExactSteps(const PdSettings& s, int n, double dt, StepCoeffsCache* cache, double* u, double* w);
// HeldExactSteps' plan for dt: `count` sub-steps of `length`; false when it
// would end in a remainder step (as HeldExactSteps).
bool HeldStepPlan(const PdSettings& s, double dt, int* count, double* length);

// State at time t from now on the current segment (t < 0: in the past): the exact
// solution with chart target velocity q[] continued and the integral held; no
// velocity limit. Writes n components of u (error) and w (error velocity).
void SegmentAt(const PdSettings& s, int n, double t, const double* q, const ChartState& c, double* u, double* w);

// Seconds until the chart error stays <= tolerance on the current segment (exact; +inf
// if never, 0 if already), measured from the equilibrium path (the target, or the
// lagging point when it moves without feed-forward).
double SegmentSettle(const PdSettings& s, int n, const double* q, const ChartState& c, double tolerance);

// Spring energy of n components: Σ kp·u²/2 + w²/2, in chart units.
double ChartEnergy(const PdSettings& s, int n, const ChartState& c);

}  // namespace ikpd::pd
