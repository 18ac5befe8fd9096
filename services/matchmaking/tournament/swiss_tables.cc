#include "services/matchmaking/tournament/swiss_tables.h"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <unordered_set>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "services/matchmaking/tournament/round_robin.h"

namespace boneyard::tournament {
namespace {

absl::Status Invalid(const char* field, const std::string& why) {
  return absl::InvalidArgumentError(absl::StrCat(field, ": ", why));
}

// Who has met whom, by place in the standings (0 best).
class Meetings {
 public:
  void Add(int a, int b) { pairs_.insert(Key(a, b)); }
  bool Met(int a, int b) const { return pairs_.count(Key(a, b)) > 0; }
  // How many of `table` `place` has met.
  int Conflicts(int place, const std::vector<int>& table) const {
    int n = 0;
    for (int other : table) n += Met(place, other) ? 1 : 0;
    return n;
  }
  int Repeats(const std::vector<int>& table) const {
    int n = 0;
    for (size_t i = 0; i < table.size(); ++i) {
      for (size_t j = i + 1; j < table.size(); ++j) n += Met(table[i], table[j]) ? 1 : 0;
    }
    return n;
  }

 private:
  static uint64_t Key(int a, int b) {
    if (a > b) std::swap(a, b);
    return (static_cast<uint64_t>(a) << 32) | static_cast<uint32_t>(b);
  }
  std::unordered_set<uint64_t> pairs_;
};

// Repeats of `table` with `out` replaced by `in`.
int RepeatsWith(const Meetings& m, std::vector<int> table, int out, int in) {
  *std::find(table.begin(), table.end(), out) = in;
  return m.Repeats(table);
}

void Replace(std::vector<int>& table, int out, int in) {
  *std::find(table.begin(), table.end(), out) = in;
}

// A swap of a member of table t who has met someone there with a member of another table
// that lowers the two tables' repeats together; the nearest such table first (so the
// standings move as little as they can).
bool TrySwap(const Meetings& m, std::vector<std::vector<int>>& tables, int t) {
  const int count = static_cast<int>(tables.size());
  for (int step = 1; step < 2 * count; ++step) {
    // Outward: t - 1, t + 1, t - 2, t + 2, ...
    const int u = t + (step % 2 == 1 ? -(step + 1) / 2 : step / 2);
    if (u < 0 || u >= count) continue;
    const int before = m.Repeats(tables[t]) + m.Repeats(tables[u]);
    for (int a : tables[t]) {
      if (m.Conflicts(a, tables[t]) == 0) continue;
      for (int b : tables[u]) {
        if (RepeatsWith(m, tables[t], a, b) + RepeatsWith(m, tables[u], b, a) < before) {
          Replace(tables[t], a, b);
          Replace(tables[u], b, a);
          return true;
        }
      }
    }
  }
  return false;
}

// When no swap helps: a three-way move among tables near t (a from t to u, b from u to v,
// c from v to t) that lowers the three tables' repeats together.
bool TryCycle(const Meetings& m, std::vector<std::vector<int>>& tables, int t) {
  constexpr int kReach = 6;
  const int count = static_cast<int>(tables.size());
  const int lo = std::max(0, t - kReach);
  const int hi = std::min(count - 1, t + kReach);
  for (int u = lo; u <= hi; ++u) {
    for (int v = lo; v <= hi; ++v) {
      if (u == t || v == t || u == v) continue;
      const int before = m.Repeats(tables[t]) + m.Repeats(tables[u]) + m.Repeats(tables[v]);
      for (int a : tables[t]) {
        if (m.Conflicts(a, tables[t]) == 0) continue;
        for (int b : tables[u]) {
          for (int c : tables[v]) {
            const int after = RepeatsWith(m, tables[t], a, c) + RepeatsWith(m, tables[u], b, a) +
                              RepeatsWith(m, tables[v], c, b);
            if (after < before) {
              Replace(tables[t], a, c);
              Replace(tables[u], b, a);
              Replace(tables[v], c, b);
              return true;
            }
          }
        }
      }
    }
  }
  return false;
}

int TotalRepeats(const Meetings& m, const std::vector<std::vector<int>>& tables) {
  int n = 0;
  for (const std::vector<int>& table : tables) n += m.Repeats(table);
  return n;
}

// Improving moves until none is left.
void Descend(const Meetings& m, std::vector<std::vector<int>>& tables) {
  for (int t = 0; t < static_cast<int>(tables.size()); ++t) {
    while (m.Repeats(tables[t]) > 0 && (TrySwap(m, tables, t) || TryCycle(m, tables, t))) {
    }
  }
}

// A sideways swap for the `attempt`-th try: a member of the first table with a repeat
// trades places with someone at a near table without adding a repeat, so that the next
// descent starts from elsewhere.
bool Sideways(const Meetings& m, std::vector<std::vector<int>>& tables, int attempt) {
  const int count = static_cast<int>(tables.size());
  int t = 0;
  while (t < count && m.Repeats(tables[t]) == 0) ++t;
  if (t == count || count < 2) return false;
  const int u = (t + 1 + attempt % (count - 1)) % count;
  const int before = m.Repeats(tables[t]) + m.Repeats(tables[u]);
  const int k = static_cast<int>(tables[t].size() * tables[u].size());
  for (int i = 0; i < k; ++i) {
    const int j = (i + attempt) % k;
    const int a = tables[t][j / tables[u].size()];
    const int b = tables[u][j % tables[u].size()];
    if (m.Conflicts(a, tables[t]) == 0) continue;
    if (RepeatsWith(m, tables[t], a, b) + RepeatsWith(m, tables[u], b, a) <= before) {
      Replace(tables[t], a, b);
      Replace(tables[u], b, a);
      return true;
    }
  }
  return false;
}

// Step 3: descend; while repeats are left, step sideways and descend again (a bounded number
// of times), keeping the best seating found.
void Repair(const Meetings& m, std::vector<std::vector<int>>& tables) {
  constexpr int kSidewaysSteps = 200;
  Descend(m, tables);
  int best_repeats = TotalRepeats(m, tables);
  std::vector<std::vector<int>> best = tables;
  for (int attempt = 0; attempt < kSidewaysSteps && best_repeats > 0; ++attempt) {
    if (!Sideways(m, tables, attempt)) break;
    Descend(m, tables);
    if (const int repeats = TotalRepeats(m, tables); repeats < best_repeats) {
      best_repeats = repeats;
      best = tables;
    }
  }
  tables = std::move(best);
  for (std::vector<int>& table : tables) std::sort(table.begin(), table.end());
}

}  // namespace

absl::StatusOr<SwissTablesRound> PairSwissTables(const SwissTablesSpec& spec) {
  const int max_size = spec.table_size;
  const int min_size = spec.min_table_size == 0 ? max_size : spec.min_table_size;
  if (max_size < 2 || max_size > kMaxTableSize) {
    return Invalid("table_size", absl::StrCat("must be from 2 to ", kMaxTableSize));
  }
  if (min_size < 2 || min_size > max_size) {
    return Invalid("min_table_size", "must be from 2 to table_size");
  }
  const int n = static_cast<int>(spec.standings.size());
  if (n < min_size || n > kMaxSwissTableEntrants) {
    return Invalid("standings", absl::StrCat("must hold ", min_size, " to ", kMaxSwissTableEntrants,
                                             " entrants, not ", n));
  }
  // Places (0 best) by id, checking the ids.
  std::vector<int> ids(n);
  std::vector<int> sorted(n);
  for (int i = 0; i < n; ++i) {
    ids[i] = sorted[i] = spec.standings[i].id;
    if (ids[i] <= 0) return Invalid("standings", absl::StrCat("id ", ids[i], " is not positive"));
  }
  std::sort(sorted.begin(), sorted.end());
  if (auto dup = std::adjacent_find(sorted.begin(), sorted.end()); dup != sorted.end()) {
    return Invalid("standings", absl::StrCat("id ", *dup, " appears twice"));
  }
  auto place_of = [&](int id) {
    auto it = std::lower_bound(sorted.begin(), sorted.end(), id);
    return it != sorted.end() && *it == id ? static_cast<int>(it - sorted.begin()) : -1;
  };
  // Sorted position -> place, so a met pair of ids becomes a pair of places.
  std::vector<int> place_at(n);
  for (int i = 0; i < n; ++i) place_at[place_of(ids[i])] = i;
  Meetings meetings;
  for (const auto& [a, b] : spec.met) {
    const int x = place_of(a);
    const int y = place_of(b);
    if (x >= 0 && y >= 0 && x != y) meetings.Add(place_at[x], place_at[y]);
  }

  const TableLayout layout = LayTables(n, max_size, min_size);
  // 1. Sit-outs: fewest sit-outs so far, then the lowest-placed.
  std::vector<bool> seated(n, false);
  std::vector<int> by_claim(n);
  std::iota(by_claim.begin(), by_claim.end(), 0);
  std::stable_sort(by_claim.begin(), by_claim.end(), [&](int a, int b) {
    if (spec.standings[a].sit_outs != spec.standings[b].sit_outs) {
      return spec.standings[a].sit_outs < spec.standings[b].sit_outs;
    }
    return a > b;
  });
  SwissTablesRound out;
  std::vector<int> sitting(by_claim.begin(), by_claim.begin() + layout.sitting_out);
  std::sort(sitting.begin(), sitting.end());
  for (int place : sitting) {
    seated[place] = true;
    out.sitting_out.push_back(ids[place]);
  }

  // 2. Tables from the top.
  std::vector<std::vector<int>> tables;
  int first_free = 0;
  for (int size : layout.sizes) {
    while (seated[first_free]) ++first_free;
    std::vector<int> table = {first_free};
    seated[first_free] = true;
    while (static_cast<int>(table.size()) < size) {
      int best = -1;
      int best_conflicts = size + 1;
      int looked = 0;
      for (int p = first_free; p < n && looked < kSwissTableWindow; ++p) {
        if (seated[p]) continue;
        ++looked;
        const int conflicts = meetings.Conflicts(p, table);
        if (conflicts < best_conflicts) {
          best = p;
          best_conflicts = conflicts;
          if (conflicts == 0) break;
        }
      }
      seated[best] = true;
      table.push_back(best);
    }
    tables.push_back(std::move(table));
  }
  // 3. Repair the repeats the window could not avoid.
  Repair(meetings, tables);
  for (const std::vector<int>& table : tables) {
    out.repeats += meetings.Repeats(table);
    std::vector<int>& ids_at = out.tables.emplace_back();
    for (int place : table) ids_at.push_back(ids[place]);
  }
  return out;
}

}  // namespace boneyard::tournament
