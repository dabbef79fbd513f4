// Shared by the PD bindings (pd.cc) and the PD batches (batch.cc): the double
// buffer JS packs PD options into, and the reader that turns it into settings.
#pragma once

#include "flat.h"
#include "ikpd/pd/controllers.h"

namespace ikpd::bindings {

// Static buffer of 32 doubles (JS: `ikpd_pd_buffer()`).
double* Io();
// The PD options packed at io[0..] (pd_fields.h layout, web/src/pd.js) → validated settings.
Status ReadSettings(pd::PdSettings* out);

}  // namespace ikpd::bindings
