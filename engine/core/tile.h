// Tiles, tile sets and tile ids.
//
// A tile is two pips, written high pip first ("6-4"). Eighty-Four plays with two double-6
// sets, so a tile also carries which copy it is; the second copy is written with a prime
// ("6-4'"). Tile ids are dense and nested: the id of a tile of copy 0 is the same in every
// set that holds it (hi*(hi+1)/2 + lo), so a double-6 id means the same tile in a double-18
// set. Copies follow the whole first set.
#ifndef BONEYARD_ENGINE_CORE_TILE_H_
#define BONEYARD_ENGINE_CORE_TILE_H_

#include <compare>
#include <cstdint>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/statusor.h"

namespace boneyard {

inline constexpr int kMaxPip = 18;
// 190 tiles in double-18; two double-6 sets are 56.
inline constexpr int kMaxTileIds = 192;

using TileId = uint8_t;

struct Tile {
  uint8_t hi = 0;
  uint8_t lo = 0;
  uint8_t copy = 0;

  constexpr Tile() = default;
  constexpr Tile(int a, int b, int copy_index = 0)
      : hi(static_cast<uint8_t>(a > b ? a : b)),
        lo(static_cast<uint8_t>(a > b ? b : a)),
        copy(static_cast<uint8_t>(copy_index)) {}

  constexpr bool IsDouble() const { return hi == lo; }
  constexpr int Pips() const { return hi + lo; }
  constexpr bool Has(int pip) const { return hi == pip || lo == pip; }
  // The pip at the other end from `pip` (which the tile must have).
  constexpr int Other(int pip) const { return hi == pip ? lo : hi; }
  // Id of this pair of pips within one copy of a set (TileSet::IdOf adds the copy's offset).
  constexpr int BaseId() const { return hi * (hi + 1) / 2 + lo; }

  // "6-4", or "6-4'" for the second copy.
  std::string ToString() const;
  // Accepts "6-4", "4-6", and a trailing "'" for the second copy. Pips 0..kMaxPip.
  static absl::StatusOr<Tile> Parse(absl::string_view text);

  friend constexpr auto operator<=>(const Tile&, const Tile&) = default;
};

// Number of distinct tiles in a double-N set.
constexpr int DistinctTiles(int max_pip) { return (max_pip + 1) * (max_pip + 2) / 2; }

// A double-N set (N in 0..18), optionally several copies of it (Eighty-Four: two double-6).
class TileSet {
 public:
  static absl::StatusOr<TileSet> DoubleN(int max_pip, int copies = 1);

  int max_pip() const { return max_pip_; }
  int copies() const { return copies_; }
  int size() const { return DistinctTiles(max_pip_) * copies_; }

  bool Contains(const Tile& t) const {
    return t.hi <= max_pip_ && t.copy < copies_;
  }
  TileId IdOf(const Tile& t) const {
    return static_cast<TileId>(t.BaseId() + t.copy * DistinctTiles(max_pip_));
  }
  Tile TileAt(int id) const;
  // Every tile, in id order.
  std::vector<Tile> AllTiles() const;
  // Total pips of the whole set.
  int TotalPips() const;

 private:
  TileSet(int max_pip, int copies) : max_pip_(max_pip), copies_(copies) {}
  int max_pip_;
  int copies_;
};

// "6-4 5-5 3-2".
std::string TilesToString(const std::vector<Tile>& tiles);

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_CORE_TILE_H_
