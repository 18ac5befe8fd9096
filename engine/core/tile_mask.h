// A set of tile ids as a fixed bitset (up to kMaxTileIds). Games with at most 64 tiles
// (Muggins, the trick games) use a plain uint64_t instead, which is faster still.
#ifndef BONEYARD_ENGINE_CORE_TILE_MASK_H_
#define BONEYARD_ENGINE_CORE_TILE_MASK_H_

#include <array>
#include <bit>
#include <cstdint>

#include "engine/core/tile.h"

namespace boneyard {

class TileMask {
 public:
  static constexpr int kWords = (kMaxTileIds + 63) / 64;

  constexpr TileMask() = default;

  constexpr void Set(int id) { words_[id >> 6] |= uint64_t{1} << (id & 63); }
  constexpr void Reset(int id) { words_[id >> 6] &= ~(uint64_t{1} << (id & 63)); }
  constexpr bool Test(int id) const { return (words_[id >> 6] >> (id & 63)) & 1; }
  constexpr int Count() const {
    int n = 0;
    for (uint64_t w : words_) n += std::popcount(w);
    return n;
  }
  constexpr bool Empty() const {
    for (uint64_t w : words_) {
      if (w) return false;
    }
    return true;
  }
  constexpr TileMask operator&(const TileMask& o) const {
    TileMask r;
    for (int i = 0; i < kWords; ++i) r.words_[i] = words_[i] & o.words_[i];
    return r;
  }
  constexpr TileMask operator|(const TileMask& o) const {
    TileMask r;
    for (int i = 0; i < kWords; ++i) r.words_[i] = words_[i] | o.words_[i];
    return r;
  }
  constexpr TileMask& operator|=(const TileMask& o) { return *this = *this | o; }
  friend constexpr bool operator==(const TileMask&, const TileMask&) = default;

  // Calls f(id) for every id in ascending order.
  template <typename F>
  constexpr void ForEach(F&& f) const {
    for (int i = 0; i < kWords; ++i) {
      for (uint64_t w = words_[i]; w; w &= w - 1) f(i * 64 + std::countr_zero(w));
    }
  }

 private:
  std::array<uint64_t, kWords> words_{};
};

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_CORE_TILE_MASK_H_
