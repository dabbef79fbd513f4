// Shared by the PD bindings (pd.cc) and the PD batches (batch.cc): the double
// buffer JS packs PD options into, and the reader that turns it into settings.
#pragma once

#include "../conventions.h"
#include "ikpd/pd/controllers.h"

namespace ikpd::bindings {

// The PD buffer: 32 doubles JS packs PD options (and a controller's
// per-call values) into (JS: `pdBuffer()`).
double* PdBuffer();
// The PD options packed in that buffer (the layout of their description,
// cpp/src/pd/fields.h) → validated settings.
Status ReadPdSettings(pd::PdSettings* out);

}  // namespace ikpd::bindings
