#include "services/matchmaking/tournament/partner_rotation.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <span>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "services/matchmaking/tournament/partner_rotation_designs.h"
#include "services/matchmaking/tournament/seeded_rng.h"

namespace boneyard::tournament {
namespace {

absl::Status Invalid(const char* field, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", why));
}

// Tables and sit-outs in the header's canonical order; team_a is the team of the table's
// lowest player.
PartnerRound Canonical(PartnerRound round) {
  for (PartnerTable& t : round.tables) {
    std::sort(t.team_a.begin(), t.team_a.end());
    std::sort(t.team_b.begin(), t.team_b.end());
    if (t.team_b.front() < t.team_a.front()) std::swap(t.team_a, t.team_b);
  }
  std::sort(round.tables.begin(), round.tables.end(),
            [](const PartnerTable& x, const PartnerTable& y) {
              return x.team_a.front() < y.team_a.front();
            });
  std::sort(round.sitting_out.begin(), round.sitting_out.end());
  return round;
}

// labels[v] is the player number (1-based) of a design's point v.
std::vector<int> SeededLabels(int players, uint64_t seed) {
  std::vector<int> labels(players);
  for (int v = 0; v < players; ++v) labels[v] = v + 1;
  SeededRng rng(seed);
  rng.Shuffle(labels);
  return labels;
}

// One cycle of a stored whist design (partner_rotation_designs.h): round i adds the group's
// i-th element to every point of the base round; without a fixed point, or with a 1-rotational
// one, point i sits out round i, and a 1-rotational design ends with the round its fixed point
// sits out.
std::vector<PartnerRound> WhistRounds(int players, const WhistDesign& design,
                                      const std::vector<int>& labels) {
  const int p = design.square_of;
  const bool fixed_point = p == 0 && (players % 4 == 0 || design.rotational);
  const int modulus = fixed_point ? players - 1 : players;
  std::vector<PartnerRound> rounds(modulus);
  for (int i = 0; i < modulus; ++i) {
    auto shifted = [&](int x) {
      if (fixed_point && x == players - 1) return labels[x];
      if (p > 0) return labels[(x / p + i / p) % p * p + (x % p + i % p) % p];
      return labels[(x + i) % modulus];
    };
    PartnerRound& round = rounds[i];
    const std::span<const int> base = design.base;
    for (size_t t = 0; t + 3 < base.size(); t += 4) {
      round.tables.push_back(
          {{shifted(base[t]), shifted(base[t + 2])}, {shifted(base[t + 1]), shifted(base[t + 3])}});
    }
    if (players % 4 == 1) round.sitting_out.push_back(shifted(0));  // 4m + 1: one sits out
    round = Canonical(std::move(round));
  }
  if (design.rotational) {
    const int m = modulus / 4;
    PartnerRound round;
    for (int x = 0; x < m; ++x) {
      round.tables.push_back({{labels[x], labels[x + 2 * m]}, {labels[x + m], labels[x + 3 * m]}});
    }
    round.sitting_out.push_back(labels[players - 1]);
    rounds.push_back(Canonical(std::move(round)));
  }
  return rounds;
}

// The rounds without `missing`: the others at its table sit out.
std::vector<PartnerRound> WithoutPlayer(std::vector<PartnerRound> rounds, int missing) {
  for (PartnerRound& round : rounds) {
    for (auto t = round.tables.begin(); t != round.tables.end(); ++t) {
      const bool here = std::count(t->team_a.begin(), t->team_a.end(), missing) +
                            std::count(t->team_b.begin(), t->team_b.end(), missing) >
                        0;
      if (!here) continue;
      for (const std::vector<int>* team : {&t->team_a, &t->team_b}) {
        for (int p : *team) {
          if (p != missing) round.sitting_out.push_back(p);
        }
      }
      round.tables.erase(t);
      break;
    }
    round = Canonical(std::move(round));
  }
  return rounds;
}

// A cycle of the design less its fixed point, its rounds reordered so that each player's three
// sit-outs fall as far apart as they can. Player j sits out rounds j - x, j - y and j - z (mod
// M), x, y, z the fixed point's tablemates in the base; taking round t * d for t = 0, 1, ...
// (d a unit mod M) puts them at times (j - x) / d, ...: the gaps are (x - y) / d and so on. The
// multiplier whose smallest gap is largest wins (so nobody sits out twice running when any can
// avoid it).
std::vector<PartnerRound> SpreadSitOuts(const std::vector<PartnerRound>& cycle,
                                        std::span<const int> base) {
  const int m = static_cast<int>(cycle.size());
  const int fixed = m;  // the design's fixed point
  std::vector<int> mates;
  for (size_t t = 0; t + 3 < base.size(); t += 4) {
    if (std::find(base.begin() + t, base.begin() + t + 4, fixed) == base.begin() + t + 4) continue;
    for (size_t i = t; i < t + 4; ++i) {
      if (base[i] != fixed) mates.push_back(base[i]);
    }
  }
  auto distance = [&](int a) {
    const int r = ((a % m) + m) % m;
    return std::min(r, m - r);
  };
  int best_d = 1, best_gap = -1;
  for (int d = 1; d < m; ++d) {
    int inverse = 0;  // 1 / d mod m, when d is a unit
    for (int e = 1; e < m && inverse == 0; ++e) {
      if (static_cast<int64_t>(d) * e % m == 1) inverse = e;
    }
    if (inverse == 0) continue;
    int gap = m;
    for (size_t i = 0; i < mates.size(); ++i) {
      for (size_t j = i + 1; j < mates.size(); ++j) {
        gap = std::min(gap, distance((mates[i] - mates[j]) * inverse));
      }
    }
    if (gap > best_gap) best_gap = gap, best_d = d;
  }
  std::vector<PartnerRound> out;
  out.reserve(m);
  for (int t = 0; t < m; ++t) out.push_back(cycle[static_cast<int64_t>(t) * best_d % m]);
  return out;
}

// Eighty-Four for 8: round r splits F_2^3 by the functional x -> popcount(x & r) mod 2.
std::vector<PartnerRound> AffineRounds(const std::vector<int>& labels) {
  std::vector<PartnerRound> rounds;
  for (int r = 1; r <= 7; ++r) {
    PartnerTable table;
    for (int v = 0; v < 8; ++v) {
      (std::popcount(static_cast<unsigned>(v & r)) % 2 == 0 ? table.team_a : table.team_b)
          .push_back(labels[v]);
    }
    rounds.push_back(Canonical({{std::move(table)}, {}}));
  }
  return rounds;
}

// Eighty-Four for 6: each split once, named by the two players who join point 0.
std::vector<PartnerRound> AllSplitRounds(const std::vector<int>& labels) {
  std::vector<PartnerRound> rounds;
  for (int a = 1; a < 6; ++a) {
    for (int b = a + 1; b < 6; ++b) {
      PartnerTable table;
      for (int v = 0; v < 6; ++v) {
        (v == 0 || v == a || v == b ? table.team_a : table.team_b).push_back(labels[v]);
      }
      rounds.push_back(Canonical({{std::move(table)}, {}}));
    }
  }
  return rounds;
}

// --- The search -------------------------------------------------------------------------------

// The lexicographic quality of a schedule: smaller is better.
struct Quality {
  int max_partners = 0;
  int max_opponents = 0;
  int64_t cost = 0;  // kPartnerWeight * partner squares + opponent squares
  auto operator<=>(const Quality&) const = default;
};

// Tuning, chosen on the sizes in the tests (Wh(9) before it was stored, 16 in teams of 4, 6- and
// 10-player schedules, 62 players):
// a perfect design where the tests know one exists is found well within the budget.
constexpr int64_t kPartnerWeight = 4;
constexpr int64_t kWorkBudget = 30'000'000;  // pair-count reads, about 0.1 s at most
constexpr int kCandidates = 16;              // conflicting seats whose swaps a step tries
constexpr int kTenure = 4;                   // a moved seat is tabu kTenure .. 2 kTenure - 1 steps
constexpr int kStall = 4'000;                // steps without a new best before a restart

// Running sum of squares and histogram of a symmetric matrix of pair counts.
class PairTally {
 public:
  PairTally(int n, int rounds)
      : n_(n), counts_(static_cast<size_t>(n) * n, 0), histogram_(rounds + 2, 0) {
    histogram_[0] = static_cast<int64_t>(n) * (n - 1) / 2;
  }
  int operator()(int a, int b) const { return counts_[static_cast<size_t>(a) * n_ + b]; }
  void Add(int a, int b, int delta) {
    int& c = counts_[static_cast<size_t>(a) * n_ + b];
    squares_ += delta > 0 ? 2 * c + 1 : -2 * c + 1;
    --histogram_[c];
    c += delta;
    ++histogram_[c];
    counts_[static_cast<size_t>(b) * n_ + a] = c;
  }
  int64_t squares() const { return squares_; }
  int Max() const {
    for (int c = static_cast<int>(histogram_.size()) - 1; c > 0; --c) {
      if (histogram_[c] > 0) return c;
    }
    return 0;
  }

 private:
  int n_;
  std::vector<int> counts_;
  std::vector<int64_t> histogram_;
  int64_t squares_ = 0;
};

// The change in a sum of squares when one count c moves by +1 or -1.
int64_t Up(int c) { return 2 * c + 1; }
int64_t Down(int c) { return -2 * c + 1; }

// The smallest sum of squares of `pairs` counts adding up to `total`, and the largest count
// in it: every count floor(total / pairs) or one more.
std::pair<int64_t, int> Floor(int64_t total, int64_t pairs) {
  const int64_t q = total / pairs, extra = total % pairs;
  return {extra * (q + 1) * (q + 1) + (pairs - extra) * q * q,
          static_cast<int>(q + (extra > 0 ? 1 : 0))};
}

class PartnerSearch {
 public:
  PartnerSearch(int players, int team_size, int rounds, uint64_t seed)
      : n_(players),
        k_(team_size),
        rounds_(rounds),
        tables_(players / (2 * team_size)),
        seats_(tables_ * 2 * team_size),
        rng_(seed),
        partners_(players, rounds),
        opponents_(players, rounds) {
    seat_.assign(rounds_, std::vector<int>(seats_));
    tabu_.assign(rounds_, std::vector<int64_t>(n_, 0));
    // Nobody sits out a second time before everyone has once: a seeded order, cut in turn.
    std::vector<int> order(n_);
    for (int v = 0; v < n_; ++v) order[v] = v;
    rng_.Shuffle(order);
    const int out = n_ - seats_;
    sitting_out_.assign(rounds_, {});
    for (int r = 0; r < rounds_; ++r) {
      for (int i = 0; i < out; ++i) sitting_out_[r].push_back(order[(r * out + i) % n_]);
    }
    const int64_t pairs = static_cast<int64_t>(n_) * (n_ - 1) / 2;
    std::tie(partner_floor_, partner_ceiling_) =
        Floor(static_cast<int64_t>(rounds_) * tables_ * k_ * (k_ - 1), pairs);
    std::tie(opponent_floor_, opponent_ceiling_) =
        Floor(static_cast<int64_t>(rounds_) * tables_ * k_ * k_, pairs);
  }

  std::vector<PartnerRound> Run() {
    for (int r = 0; r < rounds_; ++r) SeatAtRandom(r);
    best_ = seat_;
    best_quality_ = Current();
    Improve();
    return Result();
  }

 private:
  int TableOf(int seat) const { return seat / (2 * k_); }
  int TeamOf(int seat) const { return (seat / k_) % 2; }
  // The first seat of a seat's team, and of the other team at its table.
  int TeamStart(int seat) const { return seat / k_ * k_; }
  int OtherTeamStart(int seat) const { return TableOf(seat) * 2 * k_ + (1 - TeamOf(seat)) * k_; }

  void SeatAtRandom(int r) {
    std::vector<char> out(n_, 0);
    for (int v : sitting_out_[r]) out[v] = 1;
    std::vector<int> seated;
    for (int v = 0; v < n_; ++v) {
      if (!out[v]) seated.push_back(v);
    }
    rng_.Shuffle(seated);
    for (int s = 0; s < seats_; ++s) {
      seat_[r][s] = seated[s];
    }
    for (int t = 0; t < tables_; ++t) AddTable(r, t, +1);
  }

  void AddTable(int r, int t, int delta) {
    const int* s = &seat_[r][t * 2 * k_];
    for (int i = 0; i < 2 * k_; ++i) {
      for (int j = i + 1; j < 2 * k_; ++j) {
        (i / k_ == j / k_ ? partners_ : opponents_).Add(s[i], s[j], delta);
      }
    }
  }

  Quality Current() const {
    return {partners_.Max(), opponents_.Max(),
            kPartnerWeight * partners_.squares() + opponents_.squares()};
  }

  bool AtFloor() const {
    return partners_.squares() == partner_floor_ && opponents_.squares() == opponent_floor_;
  }

  // Whether the player in seat s of round r partners or opposes someone there more often than
  // a perfectly even schedule would.
  bool InConflict(int r, int s) const {
    const int v = seat_[r][s];
    const int mates = TeamStart(s), others = OtherTeamStart(s);
    for (int i = 0; i < k_; ++i) {
      if (mates + i != s && partners_(v, seat_[r][mates + i]) > partner_ceiling_) return true;
      if (opponents_(v, seat_[r][others + i]) > opponent_ceiling_) return true;
    }
    return false;
  }

  // The change in cost if the players in seats sx and sy of round r changed places.
  int64_t Delta(int r, int sx, int sy) {
    const int x = seat_[r][sx], y = seat_[r][sy];
    const int mx = TeamStart(sx), my = TeamStart(sy);
    int64_t dp = 0, dopp = 0;
    work_ += 4 * k_;
    if (TableOf(sx) != TableOf(sy)) {
      const int ox = OtherTeamStart(sx), oy = OtherTeamStart(sy);
      for (int i = 0; i < k_; ++i) {
        if (mx + i != sx) {
          const int a = seat_[r][mx + i];
          dp += Down(partners_(x, a)) + Up(partners_(y, a));
        }
        if (my + i != sy) {
          const int b = seat_[r][my + i];
          dp += Up(partners_(x, b)) + Down(partners_(y, b));
        }
        const int a = seat_[r][ox + i], b = seat_[r][oy + i];
        dopp += Down(opponents_(x, a)) + Up(opponents_(y, a));
        dopp += Up(opponents_(x, b)) + Down(opponents_(y, b));
      }
    } else {
      // Opposite teams of one table: x and y still oppose each other; each takes the other's
      // partners as partners and its own as opponents.
      for (int i = 0; i < k_; ++i) {
        if (mx + i != sx) {
          const int a = seat_[r][mx + i];
          dp += Down(partners_(x, a)) + Up(partners_(y, a));
          dopp += Up(opponents_(x, a)) + Down(opponents_(y, a));
        }
        if (my + i != sy) {
          const int b = seat_[r][my + i];
          dp += Up(partners_(x, b)) + Down(partners_(y, b));
          dopp += Down(opponents_(x, b)) + Up(opponents_(y, b));
        }
      }
    }
    return kPartnerWeight * dp + dopp;
  }

  void Swap(int r, int sx, int sy) {
    const int tx = TableOf(sx), ty = TableOf(sy);
    AddTable(r, tx, -1);
    if (ty != tx) AddTable(r, ty, -1);
    std::swap(seat_[r][sx], seat_[r][sy]);
    AddTable(r, tx, +1);
    if (ty != tx) AddTable(r, ty, +1);
  }

  void Restart() {
    for (int r = 0; r < rounds_; ++r) {
      for (int t = 0; t < tables_; ++t) AddTable(r, t, -1);
    }
    seat_ = best_;
    for (int r = 0; r < rounds_; ++r) {
      for (int t = 0; t < tables_; ++t) AddTable(r, t, +1);
    }
    // A few random swaps to leave the basin the search was stuck in.
    for (int i = 0; i < 2 + rounds_ / 4; ++i) {
      const int r = rng_.Below(rounds_);
      const int sx = rng_.Below(seats_), sy = rng_.Below(seats_);
      if (TeamStart(sx) != TeamStart(sy)) Swap(r, sx, sy);
    }
  }

  void Improve() {
    if (seats_ < 2 * k_ || tables_ == 0) return;
    int64_t step = 0, since_best = 0;
    std::vector<std::pair<int, int>> conflicts;  // (round, seat)
    while (!AtFloor() && work_ < kWorkBudget) {
      ++step;
      conflicts.clear();
      for (int r = 0; r < rounds_; ++r) {
        for (int s = 0; s < seats_; ++s) {
          if (InConflict(r, s)) conflicts.emplace_back(r, s);
        }
      }
      work_ += static_cast<int64_t>(rounds_) * seats_ * 2 * k_;
      if (conflicts.empty()) break;  // every count within one of even: the floor
      const int64_t cost = Current().cost;
      int64_t best_delta = 0;
      int best_r = -1, best_sx = -1, best_sy = -1, ties = 0;
      const int tries = std::min<int>(kCandidates, conflicts.size());
      for (int c = 0; c < tries; ++c) {
        std::swap(conflicts[c], conflicts[c + rng_.Below(conflicts.size() - c)]);
        const auto [r, sx] = conflicts[c];
        const bool x_tabu = tabu_[r][seat_[r][sx]] > step;
        for (int sy = 0; sy < seats_; ++sy) {
          if (TeamStart(sy) == TeamStart(sx)) continue;
          const int64_t delta = Delta(r, sx, sy);
          const bool tabu = x_tabu || tabu_[r][seat_[r][sy]] > step;
          if (tabu && cost + delta >= best_quality_.cost) continue;
          if (best_r < 0 || delta < best_delta) {
            best_delta = delta, best_r = r, best_sx = sx, best_sy = sy, ties = 1;
          } else if (delta == best_delta && rng_.Below(++ties) == 0) {
            best_r = r, best_sx = sx, best_sy = sy;
          }
        }
      }
      if (best_r >= 0) {
        const int x = seat_[best_r][best_sx], y = seat_[best_r][best_sy];
        Swap(best_r, best_sx, best_sy);
        tabu_[best_r][x] = step + kTenure + rng_.Below(kTenure);
        tabu_[best_r][y] = step + kTenure + rng_.Below(kTenure);
      }
      const Quality now = Current();
      if (now < best_quality_) {
        best_quality_ = now;
        best_ = seat_;
        since_best = 0;
      } else if (++since_best > kStall) {
        Restart();
        since_best = 0;
      }
    }
  }

  std::vector<PartnerRound> Result() const {
    std::vector<PartnerRound> rounds(rounds_);
    for (int r = 0; r < rounds_; ++r) {
      for (int t = 0; t < tables_; ++t) {
        PartnerTable table;
        for (int i = 0; i < k_; ++i) {
          table.team_a.push_back(best_[r][t * 2 * k_ + i] + 1);
          table.team_b.push_back(best_[r][t * 2 * k_ + k_ + i] + 1);
        }
        rounds[r].tables.push_back(std::move(table));
      }
      for (int v : sitting_out_[r]) rounds[r].sitting_out.push_back(v + 1);
      rounds[r] = Canonical(std::move(rounds[r]));
    }
    return rounds;
  }

  const int n_, k_, rounds_, tables_, seats_;
  SeededRng rng_;
  PairTally partners_, opponents_;
  std::vector<std::vector<int>> seat_;      // [round][seat] = player (0-based)
  std::vector<std::vector<int64_t>> tabu_;  // [round][player] = step it may move again
  std::vector<std::vector<int>> sitting_out_;
  std::vector<std::vector<int>> best_;
  Quality best_quality_;
  int64_t partner_floor_ = 0, opponent_floor_ = 0;
  int partner_ceiling_ = 0, opponent_ceiling_ = 0;
  int64_t work_ = 0;
};

// rounds[i] for i beyond a cycle's length repeat it from its first round.
std::vector<PartnerRound> Repeat(const std::vector<PartnerRound>& cycle, int rounds) {
  std::vector<PartnerRound> out;
  out.reserve(rounds);
  for (int r = 0; r < rounds; ++r) out.push_back(cycle[r % cycle.size()]);
  return out;
}

}  // namespace

int DefaultPartnerRounds(int players, int team_size) {
  if (team_size == 2 && players % 4 == 0) return players - 1;
  if (team_size == 2 && players % 4 == 1) return players;
  if (team_size == 2 && players % 4 == 3 && !StoredWhist(players + 1).base.empty()) return players;
  if (team_size == 4 && players == 8) return 7;
  if (team_size == 3 && players == 6) return 10;
  return std::max(1, (players - 1 + team_size - 2) / (team_size - 1));
}

absl::StatusOr<PartnerSchedule> PartnerRotationSchedule(const PartnerRotationSpec& spec) {
  if (spec.team_size < 2 || spec.team_size > kMaxPartnerTeamSize) {
    return Invalid("team_size",
                   absl::StrCat("must be 2 to ", kMaxPartnerTeamSize, ", not ", spec.team_size));
  }
  if (spec.players < 2 * spec.team_size || spec.players > kMaxPartnerRotationPlayers) {
    return Invalid("players",
                   absl::StrCat("must be ", 2 * spec.team_size, " to ", kMaxPartnerRotationPlayers,
                                " for teams of ", spec.team_size, ", not ", spec.players));
  }
  if (spec.rounds < 0 || spec.rounds > kMaxPartnerRotationRounds) {
    return Invalid("rounds", absl::StrCat("must be 1 to ", kMaxPartnerRotationRounds,
                                          " (0 for the default), not ", spec.rounds));
  }
  const int rounds =
      spec.rounds > 0 ? spec.rounds : DefaultPartnerRounds(spec.players, spec.team_size);
  PartnerSchedule schedule;
  const std::vector<int> labels = SeededLabels(spec.players, spec.seed);
  if (spec.team_size == 2) {
    if (const WhistDesign design = StoredWhist(spec.players); !design.base.empty()) {
      schedule.design = PartnerDesign::kWhist;
      schedule.rounds = Repeat(WhistRounds(spec.players, design, labels), rounds);
      return schedule;
    }
    // N = 4m + 3: the design for N + 1 with its fixed point missing; whoever would have sat
    // with it sits out.
    if (const WhistDesign design = StoredWhist(spec.players + 1);
        spec.players % 4 == 3 && !design.base.empty() && design.square_of == 0) {
      std::vector<int> with_missing = labels;
      with_missing.push_back(spec.players + 1);  // the fixed point, N, is nobody
      schedule.design = PartnerDesign::kWhistLessOne;
      schedule.rounds = Repeat(
          SpreadSitOuts(
              WithoutPlayer(WhistRounds(spec.players + 1, design, with_missing), spec.players + 1),
              design.base),
          rounds);
      return schedule;
    }
  }
  if (spec.team_size == 4 && spec.players == 8) {
    schedule.design = PartnerDesign::kAffine;
    schedule.rounds = Repeat(AffineRounds(labels), rounds);
    return schedule;
  }
  if (spec.team_size == 3 && spec.players == 6 && rounds % 10 == 0) {
    schedule.design = PartnerDesign::kAllSplits;
    schedule.rounds = Repeat(AllSplitRounds(labels), rounds);
    return schedule;
  }
  schedule.design = PartnerDesign::kSearched;
  schedule.rounds = PartnerSearch(spec.players, spec.team_size, rounds, spec.seed).Run();
  return schedule;
}

PairCounts::PairCounts(int players)
    : players_(players),
      partners_(static_cast<size_t>(players) * players, 0),
      opponents_(static_cast<size_t>(players) * players, 0),
      sat_out_(players, 0) {}

void PairCounts::Add(const PartnerRound& round) {
  auto add = [&](std::vector<int>& counts, int a, int b) {
    ++counts[Index(a, b)];
    ++counts[Index(b, a)];
  };
  for (const PartnerTable& t : round.tables) {
    for (const std::vector<int>* team : {&t.team_a, &t.team_b}) {
      for (size_t i = 0; i < team->size(); ++i) {
        for (size_t j = i + 1; j < team->size(); ++j) add(partners_, (*team)[i], (*team)[j]);
      }
    }
    for (int a : t.team_a) {
      for (int b : t.team_b) add(opponents_, a, b);
    }
  }
  for (int v : round.sitting_out) ++sat_out_[v - 1];
}

PairCounts CountPairs(int players, std::span<const PartnerRound> rounds) {
  PairCounts counts(players);
  for (const PartnerRound& r : rounds) counts.Add(r);
  return counts;
}

}  // namespace boneyard::tournament
