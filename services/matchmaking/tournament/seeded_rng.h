// The tournament library's random numbers: SplitMix64 (Steele, Lea and Flood) and a
// hand-written shuffle, not <random>'s distributions, whose results differ between standard
// libraries. A stored seed therefore reproduces a schedule on every platform.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SEEDED_RNG_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SEEDED_RNG_H_

#include <cstdint>
#include <utility>
#include <vector>

namespace boneyard::tournament {

class SeededRng {
 public:
  explicit SeededRng(uint64_t seed) : state_(seed) {}
  uint64_t Next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Uniform enough in [0, n) for n far below 2^32 (Lemire's multiply-shift, no rejection).
  int Below(int n) { return static_cast<int>(((Next() >> 32) * static_cast<uint64_t>(n)) >> 32); }
  template <typename T>
  void Shuffle(std::vector<T>& v) {
    for (int i = static_cast<int>(v.size()) - 1; i > 0; --i) std::swap(v[i], v[Below(i + 1)]);
  }

 private:
  uint64_t state_;
};

}  // namespace boneyard::tournament

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_SEEDED_RNG_H_
