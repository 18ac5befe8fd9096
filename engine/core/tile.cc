#include "engine/core/tile.h"

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace boneyard {

std::string Tile::ToString() const {
  std::string s = absl::StrCat(hi, "-", lo);
  for (int i = 0; i < copy; ++i) s.push_back('\'');
  return s;
}

absl::StatusOr<Tile> Tile::Parse(absl::string_view text) {
  absl::string_view t = absl::StripAsciiWhitespace(text);
  int copy = 0;
  while (!t.empty() && t.back() == '\'') {
    ++copy;
    t.remove_suffix(1);
  }
  const size_t dash = t.find('-');
  int a = -1;
  int b = -1;
  if (dash == absl::string_view::npos || !absl::SimpleAtoi(t.substr(0, dash), &a) ||
      !absl::SimpleAtoi(t.substr(dash + 1), &b) || t.substr(0, dash).empty() ||
      t.substr(dash + 1).empty() || !absl::ascii_isdigit(t[0]) ||
      !absl::ascii_isdigit(t[dash + 1])) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "' is not a tile (write tiles as \"6-4\")"));
  }
  if (a < 0 || b < 0 || a > kMaxPip || b > kMaxPip) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "' is not a tile: pips go from 0 to ", kMaxPip));
  }
  if (copy > 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", text, "' is not a tile: at most one ' (second set) is allowed"));
  }
  return Tile(a, b, copy);
}

absl::StatusOr<TileSet> TileSet::DoubleN(int max_pip, int copies) {
  if (max_pip < 0 || max_pip > kMaxPip) {
    return absl::InvalidArgumentError(
        absl::StrCat("a set is double-0 to double-", kMaxPip, ", not double-", max_pip));
  }
  if (copies < 1 || DistinctTiles(max_pip) * copies > kMaxTileIds) {
    return absl::InvalidArgumentError(
        absl::StrCat(copies, " copies of double-", max_pip, " do not fit in a tile id"));
  }
  return TileSet(max_pip, copies);
}

Tile TileSet::TileAt(int id) const {
  const int distinct = DistinctTiles(max_pip_);
  const int copy = id / distinct;
  int base = id % distinct;
  int hi = 0;
  while ((hi + 1) * (hi + 2) / 2 <= base) ++hi;
  return Tile(hi, base - hi * (hi + 1) / 2, copy);
}

std::vector<Tile> TileSet::AllTiles() const {
  std::vector<Tile> tiles;
  tiles.reserve(size());
  for (int id = 0; id < size(); ++id) tiles.push_back(TileAt(id));
  return tiles;
}

int TileSet::TotalPips() const {
  // Each pip value p appears in max_pip+2 half-tiles (the double counts twice).
  int total = 0;
  for (int p = 0; p <= max_pip_; ++p) total += p * (max_pip_ + 2);
  return total * copies_;
}

std::string TilesToString(const std::vector<Tile>& tiles) {
  return absl::StrJoin(tiles, " ", [](std::string* out, const Tile& t) {
    out->append(t.ToString());
  });
}

}  // namespace boneyard
