// Scratch arrays for one update, sized by the number of teams: on the stack up to
// kInlineTeams (every shape boneyard plays), on the heap past that, so the hot path allocates
// nothing while any team count still works.
#ifndef BONEYARD_SERVICES_RATINGS_MODEL_SMALL_BUFFER_H_
#define BONEYARD_SERVICES_RATINGS_MODEL_SMALL_BUFFER_H_

#include <array>
#include <cstddef>
#include <memory>
#include <span>

#include "services/ratings/model/weng_lin.h"

namespace boneyard::ratings::internal {

template <typename T>
class SmallBuffer {
 public:
  explicit SmallBuffer(size_t size) : size_(size) {
    if (size > inline_.size()) heap_ = std::make_unique<T[]>(size);
  }
  SmallBuffer(const SmallBuffer&) = delete;
  SmallBuffer& operator=(const SmallBuffer&) = delete;

  T* data() { return heap_ ? heap_.get() : inline_.data(); }
  T& operator[](size_t i) { return data()[i]; }
  std::span<T> span() { return {data(), size_}; }

 private:
  size_t size_;
  std::array<T, kInlineTeams> inline_;  // uninitialised for trivial T: callers write first
  std::unique_ptr<T[]> heap_;
};

}  // namespace boneyard::ratings::internal

#endif  // BONEYARD_SERVICES_RATINGS_MODEL_SMALL_BUFFER_H_
