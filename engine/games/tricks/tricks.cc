#include "engine/games/tricks/tricks.h"

#include <algorithm>
#include <cstdlib>

#include "absl/strings/str_cat.h"

namespace boneyard::tricks {

std::string TileName(int id) { return TileOf(id).ToString(); }

std::string HandText(Hand tiles) {
  std::string out;
  for (; tiles; tiles &= tiles - 1) {
    if (!out.empty()) out += ' ';
    out += TileName(std::countr_zero(tiles));
  }
  return out;
}

int CountPoints(Hand tiles) {
  int points = 0;
  for (; tiles; tiles &= tiles - 1) points += CountValue(std::countr_zero(tiles));
  return points;
}

std::string TrumpName(int trump) {
  if (trump == kTrumpDoubles) return "doubles";
  if (trump == kNoTrump) return "none";
  return absl::StrCat(trump);
}

std::string SuitName(int suit) { return suit == kDoublesSuit ? "doubles" : absl::StrCat(suit); }

TrickRules::TrickRules(int trump, DoublesRank doubles, bool sevens, int num_tiles)
    : trump_(static_cast<int8_t>(trump)), doubles_(doubles), sevens_(sevens) {
  const bool doubles_apart = trump == kTrumpDoubles || doubles == DoublesRank::kOwnSuit;
  for (int id = 0; id < num_tiles; ++id) {
    const bool is_double = TileIsDouble(id);
    bool is_trump = false;
    if (trump == kTrumpDoubles) {
      is_trump = is_double;
    } else if (trump != kNoTrump) {
      is_trump = TileHas(id, trump);
    }
    if (is_trump) {
      trumps_ |= Bit(id);
      suit_tiles_[trump_suit()] |= Bit(id);
      led_suit_[id] = static_cast<int8_t>(trump_suit());
    } else if (is_double && doubles_apart) {
      suit_tiles_[kDoublesSuit] |= Bit(id);
      led_suit_[id] = kDoublesSuit;
    } else {
      // A non-trump belongs to the suits of both its ends; led, it calls its higher end.
      suit_tiles_[TileHi(id)] |= Bit(id);
      suit_tiles_[TileLo(id)] |= Bit(id);
      led_suit_[id] = static_cast<int8_t>(TileHi(id));
    }
  }
}

int TrickRules::RankInSuit(int id, int suit) const {
  if (suit == kDoublesSuit) return TileHi(id) + 1;  // 6-6 highest … 0-0 lowest
  if (TileIsDouble(id)) return doubles_ == DoublesRank::kLow ? 0 : 8;
  return (TileHi(id) == suit ? TileLo(id) : TileHi(id)) + 1;
}

int TrickRules::Power(int id, int led) const {
  if (sevens_) return 16 - std::abs(TilePips(id) - 7);
  if (IsTrump(id)) return 64 + RankInSuit(id, trump_suit());
  if (Follows(id, led)) return 32 + RankInSuit(id, led);
  return 0;
}

Hand TrickRules::LegalPlays(Hand hand, int led_suit) const {
  if (sevens_) {
    // Only the tiles closest to seven pips.
    int best = 99;
    Hand closest = 0;
    for (Hand h = hand; h; h &= h - 1) {
      const int id = std::countr_zero(h);
      const int d = std::abs(TilePips(id) - 7);
      if (d < best) {
        best = d;
        closest = 0;
      }
      if (d == best) closest |= Bit(id);
    }
    return closest;
  }
  if (led_suit < 0) return hand;
  const Hand follow = hand & suit_tiles_[led_suit];
  return follow != 0 ? follow : hand;
}

int WinningIndex(const Trick& trick, const TrickRules& rules) {
  const int led = rules.LedSuit(trick.tiles[0]);
  int best = 0;
  int best_power = rules.Power(trick.tiles[0], led);
  for (int i = 1; i < trick.size; ++i) {
    const int power = rules.Power(trick.tiles[i], led);
    if (power > best_power) {  // strictly: the first of equals keeps the trick
      best = i;
      best_power = power;
    }
  }
  return best;
}

namespace {

constexpr int kMaxGroups = kMaxSeats + 1;

// Tries to move `tile` into some group, displacing tiles along an augmenting path.
bool Augment(int tile, std::span<const Hand> allowed, std::span<const int> counts,
             std::span<Hand> out, uint32_t& visited) {
  const int n = static_cast<int>(allowed.size());
  for (int g = 0; g < n; ++g) {
    if (!((allowed[g] >> tile) & 1) || ((visited >> g) & 1)) continue;
    visited |= 1u << g;
    if (std::popcount(out[g]) < counts[g]) {
      out[g] |= Bit(tile);
      return true;
    }
    for (Hand in = out[g]; in; in &= in - 1) {
      const int other = std::countr_zero(in);
      if (Augment(other, allowed, counts, out, visited)) {
        out[g] = (out[g] & ~Bit(other)) | Bit(tile);
        return true;
      }
    }
  }
  return false;
}

}  // namespace

bool DealConstrained(Hand pool, std::span<const Hand> allowed, std::span<const int> counts,
                     Rng& rng, std::span<Hand> out) {
  const int n = static_cast<int>(allowed.size());
  if (n > kMaxGroups) return false;
  int need = 0;
  for (int g = 0; g < n; ++g) need += counts[g];
  if (need != std::popcount(pool)) return false;
  std::array<uint8_t, kMaxTiles> ids{};
  int num = 0;
  for (Hand p = pool; p; p &= p - 1) ids[num++] = static_cast<uint8_t>(std::countr_zero(p));
  rng.Shuffle(ids.data(), num);
  // Fast path: unconstrained groups take shuffled tiles in turn; retry a few shuffles.
  for (int attempt = 0; attempt < 8; ++attempt) {
    for (int g = 0; g < n; ++g) out[g] = 0;
    // Most constrained groups first, each taking the first allowed tiles in shuffled order.
    std::array<int, kMaxGroups> order{};
    for (int g = 0; g < n; ++g) order[g] = g;
    std::stable_sort(order.begin(), order.begin() + n, [&](int a, int b) {
      return std::popcount(allowed[a] & pool) < std::popcount(allowed[b] & pool);
    });
    Hand left = pool;
    bool ok = true;
    for (int k = 0; k < n && ok; ++k) {
      const int g = order[k];
      for (int i = 0; i < num && std::popcount(out[g]) < counts[g]; ++i) {
        const Hand bit = Bit(ids[i]);
        if ((left & bit) && (allowed[g] & bit)) {
          out[g] |= bit;
          left &= ~bit;
        }
      }
      ok = std::popcount(out[g]) == counts[g];
    }
    if (ok) return true;
    rng.Shuffle(ids.data(), num);
  }
  // Complete: bipartite matching of tiles to group places.
  for (int g = 0; g < n; ++g) out[g] = 0;
  for (int i = 0; i < num; ++i) {
    uint32_t visited = 0;
    if (!Augment(ids[i], allowed, counts, out, visited)) return false;
  }
  return true;
}

}  // namespace boneyard::tricks
