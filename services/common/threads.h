// Small helpers for the threads the services start: how many "one per core" is, and a name
// for each, so `top -H`, `perf` and a debugger say which of a service's pools a thread belongs
// to.
#ifndef BONEYARD_SERVICES_COMMON_THREADS_H_
#define BONEYARD_SERVICES_COMMON_THREADS_H_

#include <pthread.h>

#include <algorithm>
#include <string>
#include <thread>

#include "absl/strings/string_view.h"

namespace boneyard {

// The machine's cores, at least 1 (std::thread::hardware_concurrency may say 0).
inline int CoreCount() {
  return std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
}

// Names the calling thread (Linux: 15 characters at most; longer names are cut).
inline void SetThreadName(absl::string_view name) {
  constexpr size_t kMaxLength = 15;
  const std::string cut(name.substr(0, kMaxLength));
  pthread_setname_np(pthread_self(), cut.c_str());
}

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_THREADS_H_
