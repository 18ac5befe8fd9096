// whist_search: finds a cyclic whist base for N players (N = 4m or 4m + 1) offline, for
// services/matchmaking/tournament/partner_rotation_designs.cc — not a test, not run by the build.
// Usage: whist_search [--rotational] N [seed] [seconds]; prints the base (a, b, c, d per table:
// partners a-c and b-d) and exits 0, or exits 1 when the time runs out.
//
// The base is one round over Z_q plus, for N = 4m, a fixed point (q = N - 1, point q); for
// N = 4m + 1 over Z_N without 0 (q = N). Developed by adding 1 each round it is a whist design
// exactly when, over the base, each difference class {d, -d} is one partner pair's and two
// opponent pairs' (pairs with the fixed point excepted). The search is a tabu search on the sum
// of squared misses: each step makes the best swap of two seats (in different tables, or two
// non-partners of one table) among those touching a pair whose class is off, a swapped pair then
// tabu for 8-19 steps unless it improves on the best; a restart after 200,000 steps without a new
// best. A swap's change in cost is worked out from the six pairs it touches. It found 44's base
// in seconds where annealing ran out of time, and 52, 56 and 60 (seed 11) in 8 to 16 minutes each
// on a shared core; 57 and 64 were not found in the 15 to 30 minutes tried.
//
// --rotational (N = 4m + 1) searches a 1-rotational base instead: over Z_(N-1) with the fixed
// point N - 1 playing and 0 sitting out, to be completed by the round of tables {x, x + m,
// x + 2m, x + 3m} (WhistDesign::rotational). That round covers the partner pairs at difference
// 2m and one opposing at m and at 2m, so the targets of those two classes drop by one. It found
// 57's base (seed 7) in a few minutes of CPU, where the cyclic search had failed for an hour.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string_view>
#include <vector>

namespace {

constexpr int kPartners[2][2] = {{0, 2}, {1, 3}};
constexpr int kOpponents[4][2] = {{0, 1}, {0, 3}, {2, 1}, {2, 3}};

class Search {
 public:
  Search(int players, bool rotational) {
    if (rotational) {
      // Z_(N-1) with the fixed point N - 1 playing and 0 sitting out; the round of tables
      // {x, x + q/4, x + q/2, x + 3q/4} (partners differ by q/2) is added apart, so the base
      // owes no partner pair at q/2 and one opponent pair less at q/4 and q/2.
      q_ = players - 1;
      fixed_ = q_;
      for (int p = 1; p < players; ++p) points_.push_back(p);
      classes_ = q_ / 2;
    } else {
      q_ = players % 4 == 0 ? players - 1 : players;
      fixed_ = players % 4 == 0 ? q_ : -1;
      for (int p = players % 4 == 0 ? 0 : 1; p < players; ++p) points_.push_back(p);
      classes_ = (q_ - 1) / 2;
    }
    partner_target_.assign(classes_, 1);
    opponent_target_.assign(classes_, 2);
    if (rotational) {
      partner_target_[q_ / 2 - 1] = 0;
      opponent_target_[q_ / 2 - 1] = 1;
      opponent_target_[q_ / 4 - 1] = 1;
    }
  }

  // A base, or an empty one when `deadline` passes first.
  std::vector<int> Run(std::mt19937_64& rng, std::chrono::steady_clock::time_point deadline) {
    const int n = static_cast<int>(points_.size());
    std::vector<int64_t> tabu((n + 1) * (n + 1));
    while (std::chrono::steady_clock::now() < deadline) {
      slots_ = points_;
      std::shuffle(slots_.begin(), slots_.end(), rng);
      partner_.assign(classes_, 0);
      opponent_.assign(classes_, 0);
      for (int t = 0; t < n / 4; ++t) Count(t, +1);
      int64_t cost = Cost(), best = cost;
      std::fill(tabu.begin(), tabu.end(), 0);
      for (int64_t step = 1, stale = 0; cost > 0 && stale < 200'000; ++step, ++stale) {
        int64_t best_delta = INT64_MAX;
        int bi = -1, bj = -1, ties = 0;
        for (int i = 0; i < n; ++i) {
          if (!Off(i)) continue;
          for (int j = 0; j < n; ++j) {
            if (j == i || j == (i ^ 2)) continue;  // swapping partners changes nothing
            const int64_t delta = SwapDelta(i, j);
            const bool is_tabu = tabu[slots_[i] * (n + 1) + slots_[j]] > step;
            if (is_tabu && cost + delta >= best) continue;
            if (delta < best_delta) {
              best_delta = delta, bi = i, bj = j, ties = 1;
            } else if (delta == best_delta && rng() % ++ties == 0) {
              bi = i, bj = j;
            }
          }
        }
        if (bi < 0) break;
        const int a = slots_[bi], b = slots_[bj];
        Swap(bi, bj);
        cost += best_delta;
        tabu[a * (n + 1) + b] = tabu[b * (n + 1) + a] = step + 8 + rng() % 12;
        if (cost < best) best = cost, stale = 0;
      }
      if (cost == 0) return slots_;
    }
    return {};
  }

 private:
  int Class(int a, int b) const {
    if (a == fixed_ || b == fixed_) return -1;
    int d = ((a - b) % q_ + q_) % q_;
    return std::min(d, q_ - d) - 1;
  }
  void Count(int table, int sign) {
    for (const auto& p : kPartners) {
      if (int k = Class(slots_[4 * table + p[0]], slots_[4 * table + p[1]]); k >= 0) {
        partner_[k] += sign;
      }
    }
    for (const auto& p : kOpponents) {
      if (int k = Class(slots_[4 * table + p[0]], slots_[4 * table + p[1]]); k >= 0) {
        opponent_[k] += sign;
      }
    }
  }
  int64_t PartnerMiss(int k, int partner) const {
    const int64_t d = partner - partner_target_[k];
    return d * d;
  }
  int64_t OpponentMiss(int k, int opponent) const {
    const int64_t d = opponent - opponent_target_[k];
    return d * d;
  }
  int64_t Cost() const {
    int64_t c = 0;
    for (int k = 0; k < classes_; ++k)
      c += PartnerMiss(k, partner_[k]) + OpponentMiss(k, opponent_[k]);
    return c;
  }
  // Whether slot `s` is in a pair whose class is off.
  bool Off(int s) const {
    const int t = s / 4, r = s % 4;
    const int k = Class(slots_[s], slots_[4 * t + (r ^ 2)]);
    if (k >= 0 && partner_[k] != partner_target_[k]) return true;
    for (int o : {(r & 1) ? 0 : 1, (r & 1) ? 2 : 3}) {
      const int ko = Class(slots_[s], slots_[4 * t + o]);
      if (ko >= 0 && opponent_[ko] != opponent_target_[ko]) return true;
    }
    return false;
  }
  void Swap(int i, int j) {
    Count(i / 4, -1);
    if (j / 4 != i / 4) Count(j / 4, -1);
    std::swap(slots_[i], slots_[j]);
    Count(i / 4, +1);
    if (j / 4 != i / 4) Count(j / 4, +1);
  }
  // The change in cost if slots i and j (different tables) were swapped. Only the six pairs
  // through the two slots change class, so the delta is worked out from those alone, by moving
  // the counts and putting them back (the classes they touch may coincide).
  int64_t SwapDelta(int i, int j) {
    if (i / 4 == j / 4) {
      int64_t delta = MoveTable(i / 4, -1);
      std::swap(slots_[i], slots_[j]);
      delta += MoveTable(i / 4, +1);
      MoveTable(i / 4, -1);
      std::swap(slots_[i], slots_[j]);
      MoveTable(i / 4, +1);
      return delta;
    }
    int64_t delta = MovePairs(i, -1) + MovePairs(j, -1);
    std::swap(slots_[i], slots_[j]);
    delta += MovePairs(i, +1) + MovePairs(j, +1);
    MovePairs(i, -1), MovePairs(j, -1);
    std::swap(slots_[i], slots_[j]);
    MovePairs(i, +1), MovePairs(j, +1);
    return delta;
  }
  // Adds `sign` to the classes of all of a table's pairs; returns the change in cost.
  int64_t MoveTable(int t, int sign) {
    int64_t delta = 0;
    for (const auto& p : kPartners) {
      if (int k = Class(slots_[4 * t + p[0]], slots_[4 * t + p[1]]); k >= 0) {
        const int before = partner_[k];
        partner_[k] += sign;
        delta += PartnerMiss(k, partner_[k]) - PartnerMiss(k, before);
      }
    }
    for (const auto& p : kOpponents) {
      if (int k = Class(slots_[4 * t + p[0]], slots_[4 * t + p[1]]); k >= 0) {
        const int before = opponent_[k];
        opponent_[k] += sign;
        delta += OpponentMiss(k, opponent_[k]) - OpponentMiss(k, before);
      }
    }
    return delta;
  }
  // Adds `sign` to the classes of slot s's partner pair and its two opponent pairs; returns the
  // change in cost.
  int64_t MovePairs(int s, int sign) {
    const int t = s / 4, r = s % 4;
    int64_t delta = 0;
    if (int k = Class(slots_[s], slots_[4 * t + (r ^ 2)]); k >= 0) {
      const int before = partner_[k];
      partner_[k] += sign;
      delta += PartnerMiss(k, partner_[k]) - PartnerMiss(k, before);
    }
    for (int o : {(r & 1) ? 0 : 1, (r & 1) ? 2 : 3}) {
      if (int k = Class(slots_[s], slots_[4 * t + o]); k >= 0) {
        const int before = opponent_[k];
        opponent_[k] += sign;
        delta += OpponentMiss(k, opponent_[k]) - OpponentMiss(k, before);
      }
    }
    return delta;
  }

  int q_ = 0, fixed_ = -1, classes_ = 0;
  std::vector<int> points_, slots_, partner_, opponent_, partner_target_, opponent_target_;
};

}  // namespace

int main(int argc, char** argv) {
  const bool rotational = argc > 1 && std::string_view(argv[1]) == "--rotational";
  if (rotational) --argc, ++argv;
  const int players = argc > 1 ? std::atoi(argv[1]) : 0;
  if (players < 4 || players > 200 || (players % 4 != 0 && players % 4 != 1) ||
      (rotational && players % 4 != 1)) {
    std::fprintf(stderr,
                 "usage: whist_search [--rotational] N [seed] [seconds]  (N = 4m or 4m + 1, 4-200;"
                 " --rotational: N = 4m + 1)\n");
    return 2;
  }
  std::mt19937_64 rng(argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 1);
  const double seconds = argc > 3 ? std::atof(argv[3]) : 600;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
  const std::vector<int> base = Search(players, rotational).Run(rng, deadline);
  if (base.empty()) return 1;
  for (size_t i = 0; i < base.size(); ++i) {
    std::printf("%d%s", base[i], i + 1 < base.size() ? ", " : "\n");
  }
  return 0;
}
