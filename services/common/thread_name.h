// Names the calling thread (Linux: 15 characters at most; longer names are cut), so `top -H`,
// `perf` and a debugger say which of a service's pools a thread belongs to.
#ifndef BONEYARD_SERVICES_COMMON_THREAD_NAME_H_
#define BONEYARD_SERVICES_COMMON_THREAD_NAME_H_

#include <pthread.h>

#include <string>

#include "absl/strings/string_view.h"

namespace boneyard {

inline void SetThreadName(absl::string_view name) {
  constexpr size_t kMaxLength = 15;
  const std::string cut(name.substr(0, kMaxLength));
  pthread_setname_np(pthread_self(), cut.c_str());
}

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_THREAD_NAME_H_
