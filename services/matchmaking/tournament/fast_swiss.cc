#include "services/matchmaking/tournament/fast_swiss.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "services/matchmaking/tournament/swiss_state.h"
#include "services/matchmaking/tournament/weighted_matching.h"

namespace boneyard::tournament {
namespace {

// How far past its natural opponent an entrant looks for one whose colour preference fits.
constexpr int kColourWindow = 8;

bool ColoursFit(const SwissEntrant& a, const SwissEntrant& b) {
  return a.preference == Colour::kNone || b.preference == Colour::kNone ||
         a.preference != b.preference;
}

class FastPairer {
 public:
  explicit FastPairer(const SwissRound& round) : round_(round) {}

  absl::StatusOr<std::vector<Board>> Run() {
    const auto& es = round_.entrants;
    const int n = static_cast<int>(es.size());
    std::vector<int> floaters;
    for (int group = 0; group < n;) {
      int end = group;
      while (end < n && es[end].score == es[group].score) ++end;
      std::vector<int> pool = std::move(floaters);
      floaters.clear();
      for (int i = group; i < end; ++i) pool.push_back(i);
      PairPool(pool, floaters);
      group = end;
    }
    if (!Complete(floaters) && !Repair(floaters)) {
      return absl::FailedPreconditionError(
          "pairing: no pairing of this round avoids a rematch (C1-C3)");
    }
    const int bye = floaters.empty() ? -1 : floaters.front();
    return BoardsInOrder(round_, std::move(pairs_), bye);
  }

 private:
  bool Meets(int a, int b) const { return MayMeet(round_.entrants[a], round_.entrants[b]); }

  bool Complete(const std::vector<int>& left) const {
    if (round_.entrants.size() % 2 == 0) return left.empty();
    return left.size() == 1 && round_.entrants[left.front()].bye_eligible;
  }

  // S1 against S2 with the shift described in the header; the unpaired float on.
  void PairPool(const std::vector<int>& pool, std::vector<int>& floaters) {
    const int half = static_cast<int>(pool.size()) / 2;
    const int s2_size = static_cast<int>(pool.size()) - half;
    std::vector<char> taken(s2_size, 0);
    std::vector<int> left;
    for (int i = 0; i < half; ++i) {
      const int a = pool[i];
      int pick = -1;
      for (int pass = 0; pass < 2 && pick < 0; ++pass) {
        const int reach = pass == 0 ? std::min(kColourWindow, s2_size) : s2_size;
        for (int step = 0; step < reach; ++step) {
          const int j = (i + step) % s2_size;
          const int b = pool[half + j];
          if (taken[j] || !Meets(a, b)) continue;
          if (pass == 0 && !ColoursFit(round_.entrants[a], round_.entrants[b])) continue;
          pick = j;
          break;
        }
      }
      if (pick < 0) {
        left.push_back(a);
        continue;
      }
      taken[pick] = 1;
      pairs_.emplace_back(a, pool[half + pick]);
    }
    for (int j = 0; j < s2_size; ++j) {
      if (!taken[j]) left.push_back(pool[half + j]);
    }
    // Those left may still meet one another before floating down.
    std::sort(left.begin(), left.end());
    std::vector<char> used(left.size(), 0);
    for (size_t x = 0; x < left.size(); ++x) {
      if (used[x]) continue;
      for (size_t y = x + 1; y < left.size(); ++y) {
        if (used[y] || !Meets(left[x], left[y])) continue;
        used[x] = used[y] = 1;
        pairs_.emplace_back(left[x], left[y]);
        break;
      }
    }
    for (size_t x = 0; x < left.size(); ++x) {
      if (!used[x]) floaters.push_back(left[x]);
    }
  }

  // Re-pairs the lowest boards together with the leftovers by a maximum matching (cardinality
  // first, then the bye to the lowest ranked, then colour fits), taking more boards each time.
  bool Repair(std::vector<int>& floaters) {
    std::sort(pairs_.begin(), pairs_.end());
    const bool odd = round_.entrants.size() % 2 == 1;
    for (size_t take = 4;; take *= 2) {
      take = std::min(take, pairs_.size());
      std::vector<int> group = floaters;
      for (size_t k = pairs_.size() - take; k < pairs_.size(); ++k) {
        group.push_back(pairs_[k].first);
        group.push_back(pairs_[k].second);
      }
      std::sort(group.begin(), group.end());
      using W = LexWeight<3>;
      const int count = static_cast<int>(group.size());
      std::vector<WeightedEdge<W>> edges;
      for (int x = 0; x < count; ++x) {
        for (int y = x + 1; y < count; ++y) {
          if (!Meets(group[x], group[y])) continue;
          const bool fit = ColoursFit(round_.entrants[group[x]], round_.entrants[group[y]]);
          edges.push_back({x, y, W{{1, 0, fit}}});
        }
        if (odd && round_.entrants[group[x]].bye_eligible)
          edges.push_back({x, count, W{{1, x, 0}}});
      }
      const auto mate = MaxWeightMatching(count + odd, edges);
      std::vector<std::pair<int, int>> repaired;
      std::vector<int> left;
      for (int x = 0; x < count; ++x) {
        if (mate[x] < 0 || mate[x] == count) {
          left.push_back(group[x]);
        } else if (mate[x] > x) {
          repaired.emplace_back(group[x], group[mate[x]]);
        }
      }
      if (Complete(left)) {
        pairs_.resize(pairs_.size() - take);
        pairs_.insert(pairs_.end(), repaired.begin(), repaired.end());
        floaters = left;
        return true;
      }
      if (take == pairs_.size()) return false;
    }
  }

  const SwissRound& round_;
  std::vector<std::pair<int, int>> pairs_;
};

}  // namespace

absl::StatusOr<std::vector<Board>> PairFastSwissRound(const EventRecord& event, int round) {
  absl::StatusOr<SwissRound> prepared = PrepareSwissRound(event, round);
  if (!prepared.ok()) return prepared.status();
  return FastPairer(*prepared).Run();
}

}  // namespace boneyard::tournament
