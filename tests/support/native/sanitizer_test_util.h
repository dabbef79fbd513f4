// Whether the tests run under a sanitizer, for the few tests that cannot
// (docs/testing.md, "Native tests and sanitizers").
#pragma once

// IKPD_TEST_ASAN is 1 under AddressSanitizer: GCC defines
// __SANITIZE_ADDRESS__, clang answers __has_feature(address_sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define IKPD_TEST_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IKPD_TEST_ASAN 1
#endif
#endif
#ifndef IKPD_TEST_ASAN
#define IKPD_TEST_ASAN 0
#endif
