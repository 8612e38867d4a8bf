// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Which sanitizer this translation unit is compiled with, for GCC and clang alike: GCC defines
// __SANITIZE_ADDRESS__ and __SANITIZE_THREAD__, clang 14 defines neither and answers
// __has_feature instead. The sanitizer presets build with clang (faster to compile), release
// builds with GCC, and code that must know (the TSan hand-off annotations, tests that shorten
// work under a sanitizer) tests these two macros only.
#if defined(__SANITIZE_ADDRESS__)
#define FACET_SANITIZE_ADDRESS 1
#endif
#if defined(__SANITIZE_THREAD__)
#define FACET_SANITIZE_THREAD 1
#endif
#if defined(__has_feature)
#if __has_feature(address_sanitizer) && !defined(FACET_SANITIZE_ADDRESS)
#define FACET_SANITIZE_ADDRESS 1
#endif
#if __has_feature(thread_sanitizer) && !defined(FACET_SANITIZE_THREAD)
#define FACET_SANITIZE_THREAD 1
#endif
#endif
