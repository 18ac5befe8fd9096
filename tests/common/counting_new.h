// A counting replacement of the global operator new, for tests that show code allocates
// nothing. It replaces the allocator of the whole program: include it in exactly one source
// file of a test binary of its own.
//
//   const long before = boneyard::test_alloc::Allocations();
//   ... code under test ...
//   EXPECT_EQ(boneyard::test_alloc::Allocations() - before, 0);
#ifndef BONEYARD_TESTS_COMMON_COUNTING_NEW_H_
#define BONEYARD_TESTS_COMMON_COUNTING_NEW_H_

#include <atomic>
#include <cstdlib>
#include <new>

namespace boneyard::test_alloc {

inline std::atomic<long> g_allocations{0};

// Calls of operator new (and new[]) so far in this program.
inline long Allocations() { return g_allocations.load(); }

}  // namespace boneyard::test_alloc

// The replaced operator new hands out malloc'd memory, so free() is the matching release.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t n) {
  boneyard::test_alloc::g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

#endif  // BONEYARD_TESTS_COMMON_COUNTING_NEW_H_
