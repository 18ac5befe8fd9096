#include "services/matchmaking/tournament/round_robin.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "services/matchmaking/tournament/seeded_rng.h"

namespace boneyard::tournament {
namespace {

absl::Status Invalid(const char* field, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", why));
}

absl::Status CheckRoundRobinEntrants(int entrants) {
  if (entrants < 2 || entrants > kMaxRoundRobinEntrants) {
    return Invalid("entrants",
                   absl::StrCat("must be from 2 to ", kMaxRoundRobinEntrants, ", got ", entrants));
  }
  return absl::OkStatus();
}

// The round of the Berger table for an even `n`, the dummy (if any) included.
std::vector<Board> BergerTableRound(int n, int round) {
  const int rotating = n - 1;
  // Cyclic over 1 .. n - 1.
  auto wrap = [rotating](int x) { return ((x - 1) % rotating + rotating) % rotating + 1; };
  const int p = (round - 1) * (n / 2) % rotating + 1;
  std::vector<Board> boards;
  boards.reserve(n / 2);
  boards.push_back(round % 2 == 1 ? Board{p, n} : Board{n, p});
  for (int k = 1; k < n / 2; ++k) boards.push_back({wrap(p + k), wrap(p - k)});
  return boards;
}

Board Reversed(const Board& b) { return b.black == 0 ? b : Board{b.black, b.white}; }

// --- Tables ---------------------------------------------------------------------------------

// The lexicographic quality of a schedule: smaller is better.
struct Quality {
  int max = 0;
  int spread = 0;
  int64_t squares = 0;
  auto operator<=>(const Quality&) const = default;
};

// The search's tuning, chosen on the designs in the tests (affine planes of orders 3 to 5,
// Kirkman's fifteen schoolgirls, AG(3, 2)): every one of them is found within the budget.
constexpr int64_t kWorkBudget = 30'000'000;  // pair-count reads, about 0.1 s at most
constexpr int kCandidates = 16;              // conflicting seats whose swaps a step tries
constexpr int kTenure = 4;  // a move back is tabu for kTenure .. 2 kTenure - 1 steps

// The schedule being searched, with each pair's meetings, their histogram and their sum of
// squares kept up to date move by move, so that judging a swap reads only the two tables.
class TableSearch {
 public:
  TableSearch(int entrants, const TableLayout& layout, int rounds, uint64_t seed)
      : n_(entrants), rounds_(rounds), sizes_(layout.sizes), rng_(seed) {
    for (int size : sizes_) {
      table_start_.push_back(seats_);
      for (int s = 0; s < size; ++s) table_of_seat_.push_back(table_start_.size() - 1);
      seats_ += size;
    }
    counts_.assign(static_cast<size_t>(n_) * n_, 0);
    histogram_.assign(rounds_ + 2, 0);
    histogram_[0] = static_cast<int64_t>(n_) * (n_ - 1) / 2;
    seat_.assign(rounds_, std::vector<int>(seats_));
    where_.assign(rounds_, std::vector<int>(n_, -1));
    tabu_.assign(rounds_, std::vector<int64_t>(n_, 0));
    left_.assign(rounds_, std::vector<int>(n_, -1));
    // Nobody sits out a second time before everyone has once: a seeded order, cut in turn.
    std::vector<int> order(n_);
    for (int e = 0; e < n_; ++e) order[e] = e;
    rng_.Shuffle(order);
    sitting_out_.assign(rounds_, {});
    for (int r = 0; r < rounds_; ++r) {
      for (int i = 0; i < layout.sitting_out; ++i) {
        sitting_out_[r].push_back(order[(r * layout.sitting_out + i) % n_]);
      }
    }
    const int64_t pairs = static_cast<int64_t>(n_) * (n_ - 1) / 2;
    int64_t meetings = 0;
    for (int size : sizes_) meetings += static_cast<int64_t>(size) * (size - 1) / 2;
    meetings *= rounds_;
    const int64_t q = meetings / pairs, extra = meetings % pairs;
    floor_ = extra * (q + 1) * (q + 1) + (pairs - extra) * q * q;
    ceiling_ = static_cast<int>(q + (extra > 0 ? 1 : 0));
  }

  std::vector<TableRound> Run() {
    for (int r = 0; r < rounds_; ++r) SeatGreedily(r);
    Improve();
    return Result();
  }

 private:
  int& Count(int a, int b) { return counts_[static_cast<size_t>(a) * n_ + b]; }

  void AddMeeting(int a, int b, int delta) {
    int& c = Count(a, b);
    squares_ += delta > 0 ? 2 * c + 1 : -2 * c + 1;
    --histogram_[c];
    c += delta;
    ++histogram_[c];
    Count(b, a) = c;
  }

  void AddTable(int r, int t, int delta) {
    const int* s = &seat_[r][table_start_[t]];
    for (int i = 0; i < sizes_[t]; ++i) {
      for (int j = i + 1; j < sizes_[t]; ++j) AddMeeting(s[i], s[j], delta);
    }
  }

  void SeatGreedily(int r) {
    std::vector<char> out(n_, 0);
    for (int e : sitting_out_[r]) out[e] = 1;
    std::vector<int> remaining;
    for (int e = 0; e < n_; ++e) {
      if (!out[e]) remaining.push_back(e);
    }
    rng_.Shuffle(remaining);
    constexpr int kWindow = 64;
    int next = 0;  // remaining[next..] are unseated
    for (size_t t = 0; t < sizes_.size(); ++t) {
      const int start = table_start_[t];
      for (int s = 0; s < sizes_[t]; ++s) {
        int pick = next;
        if (s > 0) {
          int best = -1;
          const int end = std::min<int>(remaining.size(), next + kWindow);
          for (int i = next; i < end; ++i) {
            int met = 0;
            for (int j = 0; j < s; ++j) met += Count(remaining[i], seat_[r][start + j]);
            if (best < 0 || met < best) best = met, pick = i;
          }
        }
        std::swap(remaining[next], remaining[pick]);
        const int e = remaining[next++];
        seat_[r][start + s] = e;
        where_[r][e] = start + s;
      }
    }
    for (size_t t = 0; t < sizes_.size(); ++t) AddTable(r, t, +1);
  }

  Quality Current() const {
    int max = 0, min = 0;
    for (int c = static_cast<int>(histogram_.size()) - 1; c >= 0; --c) {
      if (histogram_[c] > 0) {
        max = c;
        break;
      }
    }
    while (histogram_[min] == 0) ++min;
    return {max, max - min, squares_};
  }

  // Whether `e`, seated in round r, shares its table with someone met more than `limit` times.
  bool InConflict(int r, int e, int limit) {
    const int t = table_of_seat_[where_[r][e]];
    const int* s = &seat_[r][table_start_[t]];
    for (int i = 0; i < sizes_[t]; ++i) {
      if (s[i] != e && Count(e, s[i]) > limit) return true;
    }
    return false;
  }

  void Swap(int r, int a, int b) {
    const int ta = table_of_seat_[where_[r][a]], tb = table_of_seat_[where_[r][b]];
    AddTable(r, ta, -1);
    AddTable(r, tb, -1);
    std::swap(seat_[r][where_[r][a]], seat_[r][where_[r][b]]);
    std::swap(where_[r][a], where_[r][b]);
    AddTable(r, ta, +1);
    AddTable(r, tb, +1);
  }

  // The change in the sum of squares if a and b (at different tables of round r) swapped.
  int64_t SwapDelta(int r, int a, int b, const std::vector<int>& a_sums) {
    const int ta = table_of_seat_[where_[r][a]], tb = table_of_seat_[where_[r][b]];
    const int* at_a = &seat_[r][table_start_[ta]];
    const int* at_b = &seat_[r][table_start_[tb]];
    int64_t a_to_b = a_sums[tb] - Count(a, b), a_at_a = a_sums[ta];
    int64_t b_to_a = 0, b_at_b = 0;
    for (int i = 0; i < sizes_[ta]; ++i) {
      if (at_a[i] != a) b_to_a += Count(b, at_a[i]);
    }
    for (int i = 0; i < sizes_[tb]; ++i) {
      if (at_b[i] != b) b_at_b += Count(b, at_b[i]);
    }
    return 2 * (a_to_b - a_at_a + b_to_a - b_at_b) + 2 * (sizes_[ta] + sizes_[tb] - 2);
  }

  // Seats (round, entrant) sharing a table with someone met more than `limit` times.
  void Conflicts(int limit, std::vector<std::pair<int, int>>& out) {
    out.clear();
    for (int r = 0; r < rounds_; ++r) {
      for (int e : seat_[r]) {
        if (InConflict(r, e, limit)) out.emplace_back(r, e);
      }
    }
  }

  void Improve() {
    if (sizes_.size() < 2) return;  // one table: nothing to swap
    Quality best = Current();
    int64_t best_squares = squares_;
    std::vector<std::vector<int>> best_seats = seat_;
    int64_t work = 0;
    const int64_t stall_limit = std::max<int64_t>(2000, 50 * n_);
    const int kick = 2 + n_ / 16;
    int64_t last_best = 0;
    std::vector<std::pair<int, int>> conflicts;
    std::vector<int> a_sums(sizes_.size());
    for (int64_t step = 1; work < kWorkBudget && squares_ > floor_; ++step) {
      Conflicts(ceiling_, conflicts);
      if (conflicts.empty()) Conflicts(ceiling_ - 1, conflicts);
      if (conflicts.empty()) break;
      work += static_cast<int64_t>(rounds_) * seats_ * sizes_[0];
      // Trying every conflicting seat would make the early steps, when conflicts are many,
      // cost a pass over the whole schedule each; a random sample is nearly as good a guide.
      if (static_cast<int>(conflicts.size()) > kCandidates) {
        for (int i = 0; i < kCandidates; ++i) {
          std::swap(conflicts[i], conflicts[i + rng_.Below(conflicts.size() - i)]);
        }
        conflicts.resize(kCandidates);
      }
      int move_r = -1, move_a = -1, move_b = -1, ties = 0;
      int64_t move_delta = 0;
      for (const auto& [r, a] : conflicts) {
        for (size_t t = 0; t < sizes_.size(); ++t) {
          int sum = 0;
          for (int i = 0; i < sizes_[t]; ++i) {
            const int x = seat_[r][table_start_[t] + i];
            if (x != a) sum += Count(a, x);
          }
          a_sums[t] = sum;
        }
        const int ta = table_of_seat_[where_[r][a]];
        for (int pos = 0; pos < seats_; ++pos) {
          const int tb = table_of_seat_[pos];
          if (tb == ta) continue;
          const int b = seat_[r][pos];
          const int64_t delta = SwapDelta(r, a, b, a_sums);
          const bool tabu = (left_[r][a] == tb && tabu_[r][a] > step) ||
                            (left_[r][b] == ta && tabu_[r][b] > step);
          if (tabu && squares_ + delta >= best_squares) continue;
          if (move_r < 0 || delta < move_delta) {
            move_r = r, move_a = a, move_b = b, move_delta = delta, ties = 1;
          } else if (delta == move_delta && rng_.Below(++ties) == 0) {
            move_r = r, move_a = a, move_b = b;
          }
        }
        work += static_cast<int64_t>(seats_) * 2 * sizes_[0];
      }
      if (move_r < 0) continue;
      left_[move_r][move_a] = table_of_seat_[where_[move_r][move_a]];
      left_[move_r][move_b] = table_of_seat_[where_[move_r][move_b]];
      tabu_[move_r][move_a] = step + kTenure + rng_.Below(kTenure);
      tabu_[move_r][move_b] = step + kTenure + rng_.Below(kTenure);
      Swap(move_r, move_a, move_b);
      best_squares = std::min(best_squares, squares_);
      if (const Quality q = Current(); q < best) {
        best = q, best_seats = seat_, last_best = step;
        work += static_cast<int64_t>(rounds_) * seats_;
      } else if (step - last_best > stall_limit) {
        Restore(best_seats);
        for (int i = 0; i < kick; ++i) {
          const int rr = rng_.Below(rounds_);
          const int x = rng_.Below(seats_), y = rng_.Below(seats_);
          if (table_of_seat_[x] != table_of_seat_[y]) Swap(rr, seat_[rr][x], seat_[rr][y]);
        }
        last_best = step;
      }
    }
    Restore(best_seats);
  }

  void Restore(const std::vector<std::vector<int>>& seats) {
    for (int r = 0; r < rounds_; ++r) {
      for (size_t t = 0; t < sizes_.size(); ++t) AddTable(r, t, -1);
      seat_[r] = seats[r];
      for (int pos = 0; pos < seats_; ++pos) where_[r][seat_[r][pos]] = pos;
      for (size_t t = 0; t < sizes_.size(); ++t) AddTable(r, t, +1);
    }
  }

  std::vector<TableRound> Result() const {
    std::vector<TableRound> result(rounds_);
    for (int r = 0; r < rounds_; ++r) {
      for (size_t t = 0; t < sizes_.size(); ++t) {
        std::vector<int> table(seat_[r].begin() + table_start_[t],
                               seat_[r].begin() + table_start_[t] + sizes_[t]);
        for (int& e : table) ++e;
        std::sort(table.begin(), table.end());
        result[r].tables.push_back(std::move(table));
      }
      std::sort(result[r].tables.begin(), result[r].tables.end(),
                [](const std::vector<int>& x, const std::vector<int>& y) {
                  return x.size() != y.size() ? x.size() > y.size() : x < y;
                });
      for (int e : sitting_out_[r]) result[r].sitting_out.push_back(e + 1);
      std::sort(result[r].sitting_out.begin(), result[r].sitting_out.end());
    }
    return result;
  }

  const int n_;
  const int rounds_;
  const std::vector<int> sizes_;
  SeededRng rng_;
  int seats_ = 0;
  std::vector<int> table_start_;
  std::vector<int> table_of_seat_;
  std::vector<int> counts_;         // n × n, symmetric: rounds two entrants shared a table
  std::vector<int64_t> histogram_;  // pairs by count
  int64_t squares_ = 0;
  int64_t floor_ = 0;                       // the least sum of squares the meetings allow
  int ceiling_ = 0;                         // ceil(meetings / pairs): more than this is a conflict
  std::vector<std::vector<int>> seat_;      // seat_[r][position] = entrant (0-based)
  std::vector<std::vector<int>> where_;     // where_[r][entrant] = position, -1 sitting out
  std::vector<std::vector<int64_t>> tabu_;  // tabu_[r][entrant]: step until which it stays
  std::vector<std::vector<int>> left_;      // left_[r][entrant]: the table it last left
  std::vector<std::vector<int>> sitting_out_;
};

}  // namespace

int BergerRounds(int entrants) { return entrants % 2 == 0 ? entrants - 1 : entrants; }

absl::StatusOr<std::vector<Board>> BergerRound(int entrants, int round) {
  if (absl::Status s = CheckRoundRobinEntrants(entrants); !s.ok()) return s;
  if (round < 1 || round > BergerRounds(entrants)) {
    return Invalid("round",
                   absl::StrCat("must be from 1 to ", BergerRounds(entrants), ", got ", round));
  }
  const int n = entrants + entrants % 2;
  std::vector<Board> boards = BergerTableRound(n, round);
  if (n != entrants) {
    // The dummy n sits on board 1; its opponent has the bye, listed after the played boards.
    const Board first = boards.front();
    boards.erase(boards.begin());
    boards.push_back({first.white == n ? first.black : first.white, 0});
  }
  return boards;
}

absl::StatusOr<std::vector<std::vector<Board>>> BergerSchedule(int entrants) {
  if (absl::Status s = CheckRoundRobinEntrants(entrants); !s.ok()) return s;
  std::vector<std::vector<Board>> rounds;
  for (int r = 1; r <= BergerRounds(entrants); ++r) rounds.push_back(*BergerRound(entrants, r));
  return rounds;
}

absl::StatusOr<std::vector<std::vector<Board>>> DoubleRoundRobin(int entrants,
                                                                 RoundRobinCycles order) {
  absl::StatusOr<std::vector<std::vector<Board>>> first = BergerSchedule(entrants);
  if (!first.ok()) return first.status();
  std::vector<std::vector<Board>> rounds = *first;
  for (const std::vector<Board>& round : *first) {
    std::vector<Board> reversed;
    for (const Board& b : round) reversed.push_back(Reversed(b));
    rounds.push_back(std::move(reversed));
  }
  const int cycle = static_cast<int>(first->size());
  if (order == RoundRobinCycles::kSwapLastTwoOfFirstCycle && cycle >= 2) {
    std::swap(rounds[cycle - 2], rounds[cycle - 1]);
  }
  return rounds;
}

absl::StatusOr<TableLayout> PlanTables(int entrants, int max_size, int min_size) {
  if (max_size < 2 || max_size > kMaxTableSize) {
    return Invalid("table_size",
                   absl::StrCat("must be from 2 to ", kMaxTableSize, ", got ", max_size));
  }
  if (min_size < 2 || min_size > max_size) {
    return Invalid("min_table_size",
                   absl::StrCat("must be from 2 to table_size (", max_size, "), got ", min_size));
  }
  if (entrants < min_size || entrants > kMaxTableEntrants) {
    return Invalid("entrants", absl::StrCat("must be from min_table_size (", min_size, ") to ",
                                            kMaxTableEntrants, ", got ", entrants));
  }
  return LayTables(entrants, max_size, min_size);
}

TableLayout LayTables(int entrants, int max_size, int min_size) {
  // t tables fit exactly when t * min_size <= seated <= t * max_size. The least such t,
  // ceil(seated / max_size), leaves the least shortfall (t * max_size - seated), so the fewest
  // short tables; and if it fails the first bound, so does every larger t. Then fewer sit.
  for (int out = 0;; ++out) {
    const int seated = entrants - out;
    const int tables = (seated + max_size - 1) / max_size;
    if (tables * min_size > seated) continue;
    TableLayout layout;
    layout.sitting_out = out;
    layout.sizes.assign(tables, max_size);
    const int shortfall = tables * max_size - seated;
    if (shortfall > 0) {
      const int short_tables = (shortfall + (max_size - min_size) - 1) / (max_size - min_size);
      for (int i = 0; i < short_tables; ++i) {
        // Shares differing by one at most, the larger ones last to keep the sizes descending.
        layout.sizes[tables - short_tables + i] -=
            shortfall / short_tables + (i >= short_tables - shortfall % short_tables ? 1 : 0);
      }
    }
    return layout;
  }
}

absl::StatusOr<std::vector<TableRound>> TableSchedule(const TableSpec& spec) {
  absl::StatusOr<TableLayout> layout =
      PlanTables(spec.entrants, spec.table_size, spec.min_table_size.value_or(spec.table_size));
  if (!layout.ok()) return layout.status();
  if (spec.rounds < 1 || spec.rounds > kMaxTableRounds) {
    return Invalid("rounds",
                   absl::StrCat("must be from 1 to ", kMaxTableRounds, ", got ", spec.rounds));
  }
  return TableSearch(spec.entrants, *layout, spec.rounds, spec.seed).Run();
}

}  // namespace boneyard::tournament
