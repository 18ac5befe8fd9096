#include "services/matchmaking/tournament/tiebreaks.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <numeric>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"

namespace boneyard::tournament {
namespace {

constexpr double kEpsilon = 1e-9;

constexpr std::pair<TieBreak, std::string_view> kNames[] = {
    {TieBreak::kPoints, "PTS"},         {TieBreak::kBuchholz, "BH"},
    {TieBreak::kBuchholzCut1, "BH/C1"}, {TieBreak::kSonnebornBerger, "SB"},
    {TieBreak::kDirectEncounter, "DE"}, {TieBreak::kWins, "WIN"},
    {TieBreak::kMatchPoints, "MP"},     {TieBreak::kGamePoints, "GP"},
};

absl::string_view AbslView(std::string_view s) { return absl::string_view(s.data(), s.size()); }

bool Equal(double a, double b) { return std::abs(a - b) <= kEpsilon; }

bool IsVoluntarilyUnplayed(RoundCode code) {
  return code == RoundCode::kHalfBye || code == RoundCode::kZeroBye || code == RoundCode::kNone ||
         code == RoundCode::kForfeitLoss;
}

bool IsMatchWin(RoundCode code) {
  return code == RoundCode::kWin || code == RoundCode::kForfeitWin ||
         code == RoundCode::kPairingBye || code == RoundCode::kFullBye;
}

bool IsMatchDraw(RoundCode code) { return code == RoundCode::kDraw || code == RoundCode::kHalfBye; }

// Rounds past both the planned rounds and every entrant's record hold nothing, so counting
// them would only cost time (a hostile through_round of 2^31 would never finish).
int LongestRecord(const EventRecord& event) {
  std::size_t longest = std::max(event.total_rounds, 0);
  for (const Entrant& e : event.entrants) longest = std::max(longest, e.rounds.size());
  return static_cast<int>(longest);
}

// One contribution to a Buchholz-like sum.
struct Contribution {
  double value = 0;
  bool voluntarily_unplayed = false;
};

class Calculator {
 public:
  Calculator(const EventRecord& event, int through_round, const TieBreakOptions& options)
      : event_(event),
        rounds_(std::clamp(through_round, 0, LongestRecord(event))),
        options_(options),
        n_(static_cast<int>(event.entrants.size())),
        own_(n_),
        adjusted_(n_),
        encounters_(n_) {
    for (int p = 1; p <= n_; ++p) {
      double own = 0;
      int last_available = 0;  // the last round that is not a VUR
      for (int r = 1; r <= rounds_; ++r) {
        const RoundEntry e = Entry(p, r);
        own += Points(e.code);
        if (!IsVoluntarilyUnplayed(e.code)) last_available = r;
        if (PlayedAgainst(p, e)) {
          auto& [sum, count] = encounters_[p - 1][e.opponent];
          sum += Points(e.code);
          ++count;
        }
      }
      own_[p - 1] = own;
      double adjusted = 0;
      for (int r = 1; r <= rounds_; ++r) {
        const RoundEntry e = Entry(p, r);
        const bool trailing_bye = r > last_available && !HasOpponent(p, e);
        adjusted += trailing_bye ? event_.points.draw : Points(e.code);
      }
      adjusted_[p - 1] = adjusted;
    }
  }

  double Value(TieBreak tie_break, int p) const {
    switch (tie_break) {
      case TieBreak::kPoints:
        return own_[p - 1];
      case TieBreak::kBuchholz:
        return Sum(Contributions(p, /*weighted=*/false));
      case TieBreak::kBuchholzCut1:
        return Cut1(Contributions(p, /*weighted=*/false));
      case TieBreak::kSonnebornBerger:
        return Sum(Contributions(p, /*weighted=*/true));
      case TieBreak::kWins:
        return Count(p, [&](const RoundEntry& e) {
          return e.code != RoundCode::kNone && Equal(Points(e.code), event_.points.win);
        });
      case TieBreak::kMatchPoints: {
        double total = 0;
        for (int r = 1; r <= rounds_; ++r) {
          const RoundCode code = Entry(p, r).code;
          total += IsMatchWin(code)    ? options_.match_win
                   : IsMatchDraw(code) ? options_.match_draw
                                       : options_.match_loss;
        }
        return total;
      }
      case TieBreak::kGamePoints: {
        double total = 0;
        for (int r = 1; r <= rounds_; ++r) total += Entry(p, r).game_points;
        return total;
      }
      case TieBreak::kDirectEncounter:
        return 0;  // needs the tied group: see DirectEncounter
    }
    return 0;
  }

  // Gives each entrant of `group` a level from `base` up, the better placed the higher;
  // entrants the encounters leave level share one (C.07 6, see the header).
  void DirectEncounter(std::vector<int> group, int base, std::vector<double>& level) const {
    // Placing an uncatchable leader and taking the rest again is a loop, not a recursion, so a
    // long chain of leaders cannot run out of stack.
    while (true) {
      if (group.size() == 1) {
        level[group[0] - 1] = base;
        return;
      }
      bool missing = false;
      std::vector<std::vector<int>> subgroups = SplitByEncounters(group, missing);
      if (subgroups.size() > 1 && missing) {
        if (subgroups.back().size() == 1) {
          const int top = subgroups.back()[0];
          level[top - 1] = base + static_cast<int>(group.size()) - 1;
          group.erase(std::find(group.begin(), group.end(), top));
          continue;
        }
        subgroups = {group};
      }
      if (subgroups.size() > 1) {
        for (std::vector<int>& subgroup : subgroups) {
          const int size = static_cast<int>(subgroup.size());
          DirectEncounter(std::move(subgroup), base, level);
          base += size;
        }
        return;
      }
      for (int tpn : group) level[tpn - 1] = base;
      return;
    }
  }

  int entrants() const { return n_; }

 private:
  RoundEntry Entry(int p, int r) const {
    const std::vector<RoundEntry>& rounds = event_.ByTpn(p).rounds;
    return r <= static_cast<int>(rounds.size()) ? rounds[r - 1] : RoundEntry{};
  }

  double Points(RoundCode code) const { return event_.points.PointsFor(code); }

  // A record built by hand may point past the entrants; such a round has no opponent.
  bool HasOpponent(int p, const RoundEntry& e) const {
    return e.opponent >= 1 && e.opponent <= n_ && e.opponent != p && IsPaired(e.code);
  }

  bool PlayedAgainst(int p, const RoundEntry& e) const {
    return IsPlayed(e.code) && HasOpponent(p, e);
  }

  // The group split by the points its members scored against each other, lowest first; sets
  // `missing` when some pair never played. Each member's score is a range: what it has, to
  // what it would have winning every missing game; a member joins the subgroup below while its
  // lowest does not clear the best that subgroup can still reach.
  std::vector<std::vector<int>> SplitByEncounters(const std::vector<int>& group,
                                                  bool& missing) const {
    struct Reach {
      int tpn;
      double low;
      double high;
    };
    std::vector<Reach> reach;
    for (int a : group) {
      Reach r{a, 0, 0};
      for (int b : group) {
        if (a == b) continue;
        const auto it = encounters_[a - 1].find(b);
        if (it == encounters_[a - 1].end()) {
          missing = true;
          r.low += event_.points.loss;
          r.high += event_.points.win;
        } else {
          const double mean = it->second.first / it->second.second;
          r.low += mean;
          r.high += mean;
        }
      }
      reach.push_back(r);
    }
    std::sort(reach.begin(), reach.end(), [](const Reach& x, const Reach& y) {
      return x.low != y.low ? x.low < y.low : (x.high != y.high ? x.high < y.high : x.tpn < y.tpn);
    });
    std::vector<std::vector<int>> subgroups;
    double ceiling = 0;
    for (const Reach& r : reach) {
      if (!subgroups.empty() && r.low <= ceiling + kEpsilon) {
        subgroups.back().push_back(r.tpn);
        ceiling = std::max(ceiling, r.high);
      } else {
        subgroups.push_back({r.tpn});
        ceiling = r.high;
      }
    }
    return subgroups;
  }

  double Dummy(int p, const RoundEntry& e) const {
    const double own = own_[p - 1];
    if (options_.unplayed_rounds == UnplayedRounds::kC07From2024) return own;
    if (HasOpponent(p, e)) return std::min(own, adjusted_[e.opponent - 1]);
    return std::min(own, event_.points.draw * rounds_);
  }

  std::vector<Contribution> Contributions(int p, bool weighted) const {
    std::vector<Contribution> out;
    for (int r = 1; r <= rounds_; ++r) {
      const RoundEntry e = Entry(p, r);
      Contribution c;
      if (PlayedAgainst(p, e)) {
        c.value = adjusted_[e.opponent - 1];
      } else {
        c.value = Dummy(p, e);
        c.voluntarily_unplayed = IsVoluntarilyUnplayed(e.code);
      }
      if (weighted) c.value *= Points(e.code);
      out.push_back(c);
    }
    return out;
  }

  static double Sum(const std::vector<Contribution>& contributions) {
    double total = 0;
    for (const Contribution& c : contributions) total += c.value;
    return total;
  }

  static double Cut1(const std::vector<Contribution>& contributions) {
    if (contributions.empty()) return 0;
    const auto lower = [](const Contribution& x, const Contribution& y) {
      return x.value < y.value;
    };
    std::vector<Contribution> vurs;
    for (const Contribution& c : contributions) {
      if (c.voluntarily_unplayed) vurs.push_back(c);
    }
    const std::vector<Contribution>& pool = vurs.empty() ? contributions : vurs;
    return Sum(contributions) - std::min_element(pool.begin(), pool.end(), lower)->value;
  }

  template <typename Predicate>
  double Count(int p, Predicate predicate) const {
    int count = 0;
    for (int r = 1; r <= rounds_; ++r) count += predicate(Entry(p, r)) ? 1 : 0;
    return count;
  }

  const EventRecord& event_;
  const int rounds_;
  const TieBreakOptions options_;
  const int n_;
  std::vector<double> own_;
  std::vector<double> adjusted_;
  // encounters_[a - 1][b]: points a scored against b in played games, and how many games.
  std::vector<std::map<int, std::pair<double, int>>> encounters_;
};

// Higher is better for every value: -1 when `a` is placed above `b` on values [0, count), 1
// when below, 0 when they are equal on all of them.
int CompareValues(const std::vector<double>& a, const std::vector<double>& b, std::size_t count) {
  for (std::size_t i = 0; i < count; ++i) {
    if (!Equal(a[i], b[i])) return a[i] > b[i] ? -1 : 1;
  }
  return 0;
}

}  // namespace

std::string_view TieBreakName(TieBreak tie_break) {
  for (const auto& [kind, name] : kNames) {
    if (kind == tie_break) return name;
  }
  return "?";
}

absl::StatusOr<TieBreak> ParseTieBreak(std::string_view name) {
  std::string upper = absl::AsciiStrToUpper(AbslView(name));
  std::replace(upper.begin(), upper.end(), '-', '/');
  for (const auto& [kind, k_name] : kNames) {
    if (k_name == upper) return kind;
  }
  const std::string_view shown = name.substr(0, 16);
  return absl::InvalidArgumentError(absl::StrCat("unknown tie-break \"", AbslView(shown),
                                                 name.size() > 16 ? "...\"" : "\"",
                                                 ": one of PTS, BH, BH/C1, SB, DE, WIN, MP, GP"));
}

std::vector<StandingRow> Standings(const EventRecord& event, int through_round,
                                   std::span<const TieBreak> order,
                                   const TieBreakOptions& options) {
  const Calculator calculator(event, through_round, options);
  const int n = calculator.entrants();
  std::vector<StandingRow> rows(n);
  for (int p = 1; p <= n; ++p) {
    StandingRow& row = rows[p - 1];
    row.tpn = p;
    row.points = calculator.Value(TieBreak::kPoints, p);
    row.values.reserve(order.size());
    for (TieBreak tie_break : order) row.values.push_back(calculator.Value(tie_break, p));
  }
  // DE needs the groups the values before it leave tied, so it is filled in order.
  for (std::size_t k = 0; k < order.size(); ++k) {
    if (order[k] != TieBreak::kDirectEncounter) continue;
    std::vector<int> sorted(n);
    std::iota(sorted.begin(), sorted.end(), 1);
    std::stable_sort(sorted.begin(), sorted.end(), [&](int a, int b) {
      return CompareValues(rows[a - 1].values, rows[b - 1].values, k) < 0;
    });
    std::vector<double> level(n, 0);
    for (std::size_t start = 0; start < sorted.size();) {
      std::size_t end = start + 1;
      while (end < sorted.size() &&
             CompareValues(rows[sorted[start] - 1].values, rows[sorted[end] - 1].values, k) == 0) {
        ++end;
      }
      calculator.DirectEncounter(std::vector<int>(sorted.begin() + start, sorted.begin() + end), 0,
                                 level);
      start = end;
    }
    for (int p = 1; p <= n; ++p) rows[p - 1].values[k] = level[p - 1];
  }

  std::stable_sort(rows.begin(), rows.end(), [&](const StandingRow& a, const StandingRow& b) {
    return CompareValues(a.values, b.values, order.size()) < 0;
  });
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const bool shares =
        i > 0 && CompareValues(rows[i - 1].values, rows[i].values, order.size()) == 0;
    rows[i].rank = shares ? rows[i - 1].rank : static_cast<int>(i) + 1;
  }
  return rows;
}

}  // namespace boneyard::tournament
