// Reads a fuzzer's input as the fields a target needs: bytes and integers first, whatever is
// left as text. A short input reads as zeros, so every input is valid.
#ifndef BONEYARD_TESTS_FUZZ_FUZZ_INPUT_H_
#define BONEYARD_TESTS_FUZZ_FUZZ_INPUT_H_

#include <cstddef>
#include <cstdint>

#include "absl/strings/string_view.h"

namespace boneyard::fuzz {

class Input {
 public:
  Input(const uint8_t* data, size_t size) : data_(data), size_(size) {}

  uint8_t Byte() { return pos_ < size_ ? data_[pos_++] : 0; }

  uint64_t Uint64() {
    uint64_t value = 0;
    for (int i = 0; i < 8; ++i) value = (value << 8) | Byte();
    return value;
  }

  // The next `n` bytes (fewer at the end).
  absl::string_view Take(size_t n) {
    const size_t start = pos_;
    pos_ = n < size_ - pos_ ? pos_ + n : size_;
    return {reinterpret_cast<const char*>(data_) + start, pos_ - start};
  }

  absl::string_view Rest() { return Take(size_ - pos_); }

 private:
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
};

}  // namespace boneyard::fuzz

#endif  // BONEYARD_TESTS_FUZZ_FUZZ_INPUT_H_
