// A portable seeded random generator: the same seed gives the same numbers on every
// platform and standard library, which std::uniform_int_distribution and std::shuffle do
// not promise. xoshiro256** seeded through SplitMix64; bounded integers by Lemire's
// multiply-and-reject method, so there is no modulo bias.
#ifndef BONEYARD_ENGINE_CORE_RNG_H_
#define BONEYARD_ENGINE_CORE_RNG_H_

#include <cstdint>
#include <utility>

namespace boneyard {

// One SplitMix64 step: a good 64-bit mixer for deriving independent seeds.
constexpr uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A seed for a sub-stream (a round's shuffle, a bot), independent of the other streams.
constexpr uint64_t DeriveSeed(uint64_t seed, uint64_t stream) {
  uint64_t s = seed ^ (stream * 0xD1B54A32D192ED03ULL);
  SplitMix64(s);
  return SplitMix64(s);
}

class Rng {
 public:
  explicit constexpr Rng(uint64_t seed) {
    uint64_t sm = seed;
    for (uint64_t& w : s_) w = SplitMix64(sm);
  }

  constexpr uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, n); n must be positive.
  constexpr uint32_t Below(uint32_t n) {
    uint64_t m = static_cast<uint64_t>(static_cast<uint32_t>(Next() >> 32)) * n;
    uint32_t low = static_cast<uint32_t>(m);
    if (low < n) {
      const uint32_t threshold = static_cast<uint32_t>(-n) % n;
      while (low < threshold) {
        m = static_cast<uint64_t>(static_cast<uint32_t>(Next() >> 32)) * n;
        low = static_cast<uint32_t>(m);
      }
    }
    return static_cast<uint32_t>(m >> 32);
  }

  // Fisher-Yates, portable.
  template <typename T>
  constexpr void Shuffle(T* first, int n) {
    for (int i = n - 1; i > 0; --i) {
      const int j = static_cast<int>(Below(static_cast<uint32_t>(i + 1)));
      std::swap(first[i], first[j]);
    }
  }

 private:
  static constexpr uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4]{};
};

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_CORE_RNG_H_
