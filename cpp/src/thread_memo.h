// Internal: storage class for the small per-thread memos a job may keep (the
// two-bone rig axes of the last call): thread_local natively; a plain static
// in single-threaded WebAssembly, where thread-local storage would need the
// atomics feature once bulk memory is on.
#pragma once

#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
#define IKPD_THREAD_MEMO static
#else
#define IKPD_THREAD_MEMO thread_local
#endif
