#include "services/matchmaking/tournament/dutch.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "boost/graph/adjacency_list.hpp"
#include "boost/graph/max_cardinality_matching.hpp"
#include "services/matchmaking/tournament/swiss_state.h"
#include "services/matchmaking/tournament/weighted_matching.h"

namespace boneyard::tournament {
namespace {

// Bits of a level a layout fills: the duals of the matching reach twice an edge's weight, so
// a level keeps headroom below int64's 63 bits.
constexpr int kBitsPerLevel = 60;
constexpr int kBye = -1;
// A partner below the matching's window (BracketPairer::Match).
constexpr int kOutside = -3;

int BitsFor(int64_t max_total) {
  int bits = 1;
  while ((int64_t{1} << bits) <= max_total) ++bits;
  return bits;
}

// Packs criteria into the levels of a Weight, most important first: a field is a count whose
// total over any matching stays below 2^bits, so packed fields compare lexicographically.
class FieldLayout {
 public:
  explicit FieldLayout(int levels) : levels_(levels) {}

  struct Field {
    int level = -1;  // -1: no room left; the field is dropped
    int shift = 0;
  };

  Field Add(int64_t max_total) {
    const int bits = BitsFor(max_total);
    if (bits > kBitsPerLevel) return {};
    if (used_ + bits > kBitsPerLevel) {
      ++level_;
      used_ = 0;
    }
    if (level_ >= levels_) return {};
    used_ += bits;
    return {level_, kBitsPerLevel - used_};
  }

  // How many levels the fields so far take.
  int LevelsUsed() const { return used_ == 0 ? level_ : level_ + 1; }

 private:
  int levels_;
  int level_ = 0;
  int used_ = 0;
};

template <typename W>
void Put(W& w, FieldLayout::Field f, int64_t value) {
  if (f.level < 0 || value == 0) return;
  w.level[f.level] += value << f.shift;
}

struct RoundContext {
  const SwissRound* round = nullptr;
  std::vector<std::vector<char>> may_meet;  // by index in pairing order
  bool odd = false;
  double bye_score = 0;  // C5: the lowest score the PAB can go to
  int max_unplayed = 0;

  const SwissEntrant& At(int i) const { return round->entrants[i]; }
  bool ByeCandidate(int i) const { return At(i).bye_eligible && At(i).score <= bye_score; }
};

// The colour facts of a pair that C10-C13 count.
struct ColourOutcome {
  bool topscorer_difference_ok = true;  // C10
  bool topscorer_streak_ok = true;      // C11
  bool preferences_met = true;          // C12
  bool strong_preferences_met = true;   // C13
};

ColourOutcome JudgeColours(const SwissEntrant& hi, const SwissEntrant& lo, Colour initial) {
  ColourOutcome out;
  const Board board = AllocateColours(hi, lo, initial);
  const Colour hi_colour = board.white == hi.tpn ? Colour::kWhite : Colour::kBlack;
  const Colour lo_colour = Opposite(hi_colour);
  auto gets = [](const SwissEntrant& e, Colour c) {
    return e.preference == Colour::kNone || e.preference == c;
  };
  out.preferences_met = gets(hi, hi_colour) && gets(lo, lo_colour);
  auto strong_unmet = [&](const SwissEntrant& e, Colour c) {
    return e.strength == Strength::kStrong && !gets(e, c);
  };
  // When both preferences are absolute (topscorers), the one who loses is C10/C11's concern.
  const bool both_absolute =
      hi.strength == Strength::kAbsolute && lo.strength == Strength::kAbsolute;
  out.strong_preferences_met =
      both_absolute || (!strong_unmet(hi, hi_colour) && !strong_unmet(lo, lo_colour));
  if (hi.topscorer || lo.topscorer) {
    auto difference_ok = [](const SwissEntrant& e, Colour c) {
      return std::abs(e.colour_difference + (c == Colour::kWhite ? 1 : -1)) <= 2;
    };
    auto streak_ok = [](const SwissEntrant& e, Colour c) {
      const auto& h = e.colours;
      return h.size() < 2 || h[h.size() - 1] != c || h[h.size() - 2] != c;
    };
    out.topscorer_difference_ok = difference_ok(hi, hi_colour) && difference_ok(lo, lo_colour);
    out.topscorer_streak_ok = streak_ok(hi, hi_colour) && streak_ok(lo, lo_colour);
  }
  return out;
}

// One bracket's criteria as fields of a weight (C4-C21), shared by every pass of the bracket.
template <int K>
class CriteriaWeigher {
 public:
  using Weight = LexWeight<K>;

  CriteriaWeigher(const RoundContext& ctx, const std::vector<int>& bracket,
                  const std::vector<char>& in_bracket, const std::vector<char>& in_next,
                  const std::vector<double>& bracket_scores, const std::vector<double>& next_scores,
                  int next_size)
      : ctx_(ctx), in_bracket_(in_bracket), in_next_(in_next) {
    // Field widths follow what each can total; a criterion no pair of this bracket can touch
    // (or that every candidate scores alike, given the criteria above it) gets no field.
    const int64_t everyone = 2 * static_cast<int64_t>(ctx.round->entrants.size()) + 2;
    const int64_t size = static_cast<int64_t>(bracket.size()) + 1;
    bool topscorers = false;
    bool mdps = false;
    bool resident_up[2] = {false, false};
    std::map<double, bool> down_at[2];
    const double resident_score = ctx.At(bracket.back()).score;
    for (int i : bracket) {
      const SwissEntrant& e = ctx.At(i);
      topscorers = topscorers || e.topscorer;
      mdps = mdps || e.score > resident_score;
      for (int back = 0; back < 2; ++back) {
        const Float f = back == 0 ? e.float_last : e.float_before;
        if (f == Float::kDown) down_at[back][e.score] = true;
        if (f == Float::kUp && e.score == resident_score) resident_up[back] = true;
      }
    }
    complete_ = layout_.Add(everyone);
    pairs_ = layout_.Add(size);
    for (double s : bracket_scores) score_field_[s] = layout_.Add(size);
    if (next_size > 0) {
      next_pairs_ = layout_.Add(size + next_size);
      for (double s : next_scores) next_score_field_[s] = layout_.Add(size + next_size);
    }
    if (ctx.odd) unplayed_ = layout_.Add(int64_t{ctx.max_unplayed} + 1);
    if (topscorers) {
      topscorer_difference_ = layout_.Add(size);
      topscorer_streak_ = layout_.Add(size);
    }
    preferences_ = layout_.Add(size);
    strong_preferences_ = layout_.Add(size);
    const int round = ctx.round->round;
    bool up_matters[2];
    for (int back = 0; back < 2; ++back) up_matters[back] = mdps && resident_up[back];
    for (int back = 1; back <= 2; ++back) {
      if (round - back < 1) continue;
      if (!down_at[back - 1].empty()) repeat_down_[back - 1] = layout_.Add(2 * size);
      if (up_matters[back - 1]) repeat_up_[back - 1] = layout_.Add(size);
    }
    for (int back = 1; back <= 2; ++back) {
      if (round - back < 1) continue;
      for (double s : bracket_scores) {
        if (down_at[back - 1].count(s)) repeat_down_score_[back - 1][s] = layout_.Add(2 * size);
      }
      if (!up_matters[back - 1]) continue;
      for (double s : bracket_scores) repeat_up_score_[back - 1][s] = layout_.Add(size);
    }
  }

  const FieldLayout& layout() const { return layout_; }

  // C9 counts only in a bracket whose one downfloater is the PAB assignee: there the choice of
  // downfloater is the choice of assignee. With more downfloaters, a later bracket chooses.
  void CountUnplayedGames(bool on) { count_unplayed_ = on; }

  // hi precedes lo in pairing order; lo == kBye for the PAB. `complete_only` gives just the
  // completion level's unit.
  Weight Weigh(int hi, int lo, bool complete_only = false) const {
    Weight w;
    Put(w, complete_, 1);
    if (complete_only) return w;
    if (lo == kBye) {
      if (count_unplayed_) Put(w, unplayed_, ctx_.max_unplayed - ctx_.At(hi).unplayed_rounds);
      return w;
    }
    const SwissEntrant& a = ctx_.At(hi);
    const SwissEntrant& b = ctx_.At(lo);
    const bool both_in = in_bracket_[hi] && in_bracket_[lo];
    if (both_in) {
      Put(w, pairs_, 1);
      PutAt(w, score_field_, a.score, 1);
    } else if ((in_bracket_[hi] || in_next_[hi]) && in_next_[lo]) {
      Put(w, next_pairs_, 1);
      PutAt(w, next_score_field_, a.score, 1);
    }
    if (!both_in) return w;
    const ColourOutcome c = JudgeColours(a, b, ctx_.round->initial_colour);
    Put(w, topscorer_difference_, c.topscorer_difference_ok);
    Put(w, topscorer_streak_, c.topscorer_streak_ok);
    Put(w, preferences_, c.preferences_met);
    Put(w, strong_preferences_, c.strong_preferences_met);
    const int round = ctx_.round->round;
    for (int back = 1; back <= 2; ++back) {
      if (round - back < 1) continue;
      const Float fa = back == 1 ? a.float_last : a.float_before;
      const Float fb = back == 1 ? b.float_last : b.float_before;
      const bool up_again = a.score > b.score && fb == Float::kUp;
      // Pairing an entrant here keeps it from floating down again (C14, C16) ...
      Put(w, repeat_down_[back - 1],
          (fb == Float::kDown) + (a.score <= b.score && fa == Float::kDown));
      // ... and an MDP's opponent who floated up before is an upfloat repeated (C15, C17).
      Put(w, repeat_up_[back - 1], !up_again);
      PutAt(w, repeat_down_score_[back - 1], b.score, fb == Float::kDown);
      PutAt(w, repeat_down_score_[back - 1], a.score, fa == Float::kDown);
      PutAt(w, repeat_up_score_[back - 1], a.score, !up_again);
    }
    return w;
  }

 private:
  static void PutAt(Weight& w, const std::map<double, FieldLayout::Field>& fields, double score,
                    int64_t value) {
    auto it = fields.find(score);
    if (it != fields.end()) Put(w, it->second, value);
  }

  const RoundContext& ctx_;
  const std::vector<char>& in_bracket_;
  const std::vector<char>& in_next_;
  FieldLayout layout_{K};
  bool count_unplayed_ = false;
  FieldLayout::Field complete_, pairs_, next_pairs_, unplayed_;
  FieldLayout::Field topscorer_difference_, topscorer_streak_, preferences_, strong_preferences_;
  std::map<double, FieldLayout::Field> score_field_, next_score_field_;
  FieldLayout::Field repeat_down_[2], repeat_up_[2];
  std::map<double, FieldLayout::Field> repeat_down_score_[2], repeat_up_score_[2];
};

// Whether `players` (indices in pairing order) can all be paired, one of them taking the PAB
// when `with_bye`: a maximum-cardinality matching (Edmonds, Boost.Graph).
bool PerfectlyMatchable(const RoundContext& ctx, const std::vector<int>& players, bool with_bye) {
  const int count = static_cast<int>(players.size());
  if ((count + with_bye) % 2 != 0) return false;
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
  Graph graph(count + with_bye);
  for (int x = 0; x < count; ++x) {
    for (int y = x + 1; y < count; ++y) {
      if (ctx.may_meet[players[x]][players[y]]) boost::add_edge(x, y, graph);
    }
    if (with_bye && ctx.ByeCandidate(players[x])) boost::add_edge(x, count, graph);
  }
  std::vector<boost::graph_traits<Graph>::vertex_descriptor> mate(count + with_bye);
  boost::edmonds_maximum_cardinality_matching(graph, &mate[0]);
  return 2 * static_cast<int>(boost::matching_size(graph, &mate[0])) == count + with_bye;
}

// Pairs one bracket: its MDPs and residents, with everyone below taking part in the matching.
template <int K>
class BracketPairer {
 public:
  using Weight = LexWeight<K>;

  BracketPairer(const RoundContext& ctx, std::vector<int> mdps, std::vector<int> residents,
                std::vector<int> next, std::vector<int> below)
      : ctx_(ctx),
        mdps_(std::move(mdps)),
        residents_(std::move(residents)),
        window_(next),
        below_(std::move(below)) {
    const int n = static_cast<int>(ctx.round->entrants.size());
    in_bracket_.assign(n, 0);
    in_next_.assign(n, 0);
    is_mdp_.assign(n, 0);
    for (int i : mdps_) in_bracket_[i] = is_mdp_[i] = 1;
    for (int i : residents_) in_bracket_[i] = 1;
    for (int i : next) in_next_[i] = 1;
    bracket_ = mdps_;
    bracket_.insert(bracket_.end(), residents_.begin(), residents_.end());
    std::vector<double> scores;
    for (int i : bracket_) scores.push_back(ctx.At(i).score);
    std::vector<double> next_scores = scores;
    for (int i : next) next_scores.push_back(ctx.At(i).score);
    auto unique_desc = [](std::vector<double>& v) {
      std::sort(v.rbegin(), v.rend());
      v.erase(std::unique(v.begin(), v.end()), v.end());
    };
    unique_desc(scores);
    unique_desc(next_scores);
    weigher_ = std::make_unique<CriteriaWeigher<K>>(ctx, bracket_, in_bracket_, in_next_, scores,
                                                    next_scores, static_cast<int>(next.size()));
    fixed_.assign(n, -2);
  }

  int QualityLevels() const { return weigher_->layout().LevelsUsed(); }

  // The pairs made in the bracket (indices in pairing order, higher first) and its
  // downfloaters (in pairing order).
  void Pair(std::vector<std::pair<int, int>>& pairs, std::vector<int>& downfloaters) {
    if (ctx_.odd && !residents_.empty() && ctx_.bye_score >= ctx_.At(residents_[0]).score) {
      const auto quality = Match([](int, int) { return true; }, [](int, int, Weight&) {});
      int floating = 0;
      bool bye_among_them = false;
      for (int i : bracket_) {
        if (!InBracket(quality[i])) {
          ++floating;
          bye_among_them = bye_among_them || quality[i] == kBye;
        }
      }
      weigher_->CountUnplayedGames(floating == 1 && bye_among_them);
    }
    if (!mdps_.empty()) PairMovedDown();
    PairRemainder();
    for (int i : bracket_) {
      if (fixed_[i] >= 0) {
        if (i < fixed_[i]) pairs.emplace_back(i, fixed_[i]);
      } else {
        downfloaters.push_back(i);
      }
    }
    std::sort(downfloaters.begin(), downfloaters.end());
  }

 private:
  using Extra = std::function<void(int hi, int lo, Weight&)>;

  // One matching over the unfixed entrants of the bracket and everyone below (and the PAB's
  // vertex when the round is odd). `allowed` can veto an edge; `extra` adds ordering fields.
  //
  // It is first solved on a window: the bracket and the next scoregroup, plus for each of
  // their entrants a stand-in for "paired with someone further down" (worth completion only,
  // as such a pair is for every criterion: C8 counts pairs into the next scoregroup, nothing
  // counts pairs below it). Completion counts the paired entrants, not the pairs, so a pair
  // inside the window is worth as much as two stand-ins. That is a relaxation of the whole
  // round — any complete pairing maps onto it at the same worth — so when the rest of the
  // round (everyone below the next scoregroup, and whoever took a stand-in) can still be
  // completed, the window's answer is the whole round's. Otherwise the matching is solved again
  // over everyone below. The window keeps a matching to the two scoregroups where the whole
  // field would be hundreds more vertices, and the cost is cubic: a 1,000-entrant round went
  // from about 10 s with everyone to about 3 s.
  std::vector<int> Match(const std::function<bool(int, int)>& allowed, const Extra& extra) {
    if (window_.size() < below_.size()) {
      std::vector<int> mate = MatchOver(window_, allowed, extra);
      if (RestCompletable(mate)) return mate;
    }
    return MatchOver(below_, allowed, extra);
  }

  // Whether everyone below the bracket that the window's pairs touching the bracket or the
  // next scoregroup leave free can still be paired (with the PAB, if still to give).
  bool RestCompletable(const std::vector<int>& mate) const {
    std::vector<int> rest;
    bool bye_given = false;
    for (int i : bracket_) {
      if (fixed_[i] == -2 && mate[i] == -2) return false;  // a bracket entrant left unpaired
      bye_given = bye_given || (fixed_[i] == -2 && mate[i] == kBye);
    }
    for (int i : bracket_) {
      if (fixed_[i] == -2 && mate[i] == kOutside) rest.push_back(i);
    }
    for (int i : below_) {
      const bool touches = (in_next_[i] && mate[i] != kOutside) ||
                           (mate[i] >= 0 && in_bracket_[mate[i]]) ||
                           (mate[i] >= 0 && in_next_[mate[i]]);
      if (in_next_[i] && mate[i] == kBye) bye_given = true;
      if (in_next_[i] && mate[i] == -2) return false;
      if (!touches) rest.push_back(i);
    }
    return PerfectlyMatchable(ctx_, rest, ctx_.odd && !bye_given);
  }

  std::vector<int> MatchOver(const std::vector<int>& below,
                             const std::function<bool(int, int)>& allowed, const Extra& extra) {
    const bool windowed = below.size() < below_.size();
    std::vector<int> vertices;
    for (int i : bracket_) {
      if (fixed_[i] == -2) vertices.push_back(i);
    }
    vertices.insert(vertices.end(), below.begin(), below.end());
    const int count = static_cast<int>(vertices.size());
    const int bye_vertex = ctx_.odd ? count : -1;
    // In the window, completion counts paired entrants (all must be), not pairs: a pair in
    // the window must be worth as much as two stand-ins.
    const Weight unit = weigher_->Weigh(-1, kBye, /*complete_only=*/true);
    auto core = [&](int i) { return i >= 0 && (in_bracket_[i] || in_next_[i]); };
    auto completion = [&](Weight& w, int hi, int lo) {
      if (windowed && core(hi) && core(lo)) w = w + unit;
    };
    std::vector<WeightedEdge<Weight>> edges;
    for (int x = 0; x < count; ++x) {
      const int hi = vertices[x];
      // An MDP left unpaired by the MDP pass floats on (it is in the limbo).
      const bool limbo = mdps_decided_ && is_mdp_[hi];
      for (int y = x + 1; y < count; ++y) {
        const int lo = vertices[y];
        if (!ctx_.may_meet[hi][lo] || !allowed(hi, lo)) continue;
        if (limbo && in_bracket_[lo]) continue;
        Weight w = weigher_->Weigh(hi, lo);
        extra(hi, lo, w);
        completion(w, hi, lo);
        edges.push_back({x, y, w});
      }
      if (bye_vertex >= 0 && ctx_.ByeCandidate(hi) && allowed(hi, kBye)) {
        Weight w = weigher_->Weigh(hi, kBye);
        extra(hi, kBye, w);
        completion(w, hi, kBye);
        edges.push_back({x, bye_vertex, w});
      }
    }
    // The stand-ins: one per entrant of the bracket or the next scoregroup who could meet
    // someone below the window.
    int vertex_count = count + (bye_vertex >= 0);
    std::vector<char> in_window(ctx_.round->entrants.size(), 0);
    for (int i : below) in_window[i] = 1;
    if (windowed) {
      for (int x = 0; x < count; ++x) {
        const int i = vertices[x];
        if (!core(i)) continue;
        bool beyond = false;
        for (int j : below_) {
          if (!in_window[j] && ctx_.may_meet[i][j] && allowed(i, j)) {
            beyond = true;
            break;
          }
        }
        if (!beyond) continue;
        Weight w = unit;
        extra(i, kOutside, w);
        edges.push_back({x, vertex_count++, w});
      }
    }
    const std::vector<int> mate = MaxWeightMatching(vertex_count, edges);
    std::vector<int> result(ctx_.round->entrants.size(), -2);
    for (int x = 0; x < count; ++x) {
      if (mate[x] < 0) continue;
      if (mate[x] == bye_vertex) {
        result[vertices[x]] = kBye;
      } else if (mate[x] >= count) {
        result[vertices[x]] = kOutside;
      } else {
        result[vertices[x]] = vertices[mate[x]];
      }
    }
    return result;
  }

  bool InBracket(int i) const { return i >= 0 && in_bracket_[i]; }

  // MDPs are paired first (C.04.3 art. 3): the highest MDPs that can be, each against the
  // lowest-numbered resident that keeps the pairing best.
  void PairMovedDown() {
    FieldLayout layout = weigher_->layout();
    const int m0 = static_cast<int>(mdps_.size());
    const int size = static_cast<int>(bracket_.size());
    std::vector<int> rank(ctx_.round->entrants.size(), -1);
    for (int r = 0; r < size; ++r) rank[bracket_[r]] = r;
    // Which MDPs are paired: earlier MDPs first (a bit each, most significant first).
    std::vector<FieldLayout::Field> chosen;
    for (int m = 0; m < m0; ++m) chosen.push_back(layout.Add(1));
    std::vector<FieldLayout::Field> opponent;
    for (int m = 0; m < m0; ++m) opponent.push_back(layout.Add(size));
    const auto mate = Match([](int, int) { return true; },
                            [&](int hi, int lo, Weight& w) {
                              if (!InBracket(lo) || rank[hi] >= m0) return;
                              Put(w, chosen[rank[hi]], 1);
                              Put(w, opponent[rank[hi]], size - rank[lo]);
                            });
    for (int m : mdps_) {
      if (InBracket(mate[m])) {
        fixed_[m] = mate[m];
        fixed_[mate[m]] = m;
      }
    }
    mdps_decided_ = true;
  }

  // The residents left: S1 and S2 with the fewest exchanges, then the lowest transposition.
  void PairRemainder() {
    std::vector<int> rest;
    for (int i : residents_) {
      if (fixed_[i] == -2) rest.push_back(i);
    }
    if (rest.size() < 2) return;
    const int size = static_cast<int>(rest.size());
    std::vector<int> pos(ctx_.round->entrants.size(), -1);
    for (int r = 0; r < size; ++r) pos[rest[r]] = r;
    auto in_rest = [&](int i) { return i >= 0 && pos[i] >= 0; };

    // Pass 1: how many pairs the remainder makes, and the exchange.
    const auto quality = Match([](int, int) { return true; }, [](int, int, Weight&) {});
    int pairs = 0;
    for (int i : rest) pairs += in_rest(quality[i]) && quality[i] > i;
    if (pairs == 0) return;
    FieldLayout layout = weigher_->layout();
    // S1' is the higher entrant of each pair. The exchange's order: fewest entrants exchanged
    // (pairs whose higher entrant is in S1), the least sum of S1' numbers, then — as sets
    // compared by their largest, resp. smallest, differing number — the highest numbers moved
    // from S1 to S2 and the lowest moved from S2 to S1: a bit per position, so a sum compares
    // as the sets do. Those two need a bit per entrant of S1, resp. S2; past 48 they are left
    // out (the earlier criteria then decide alone).
    constexpr int kMaxSetBits = 48;
    const int s2_count = size - pairs;
    const auto fewest_exchanges = layout.Add(pairs);
    const auto least_sum = layout.Add(int64_t{pairs} * size);
    FieldLayout::Field highest_down;
    FieldLayout::Field lowest_up;
    if (pairs <= kMaxSetBits && s2_count <= kMaxSetBits) {
      highest_down = layout.Add(int64_t{pairs} << pairs);
      lowest_up = layout.Add(int64_t{1} << s2_count);
    }
    const auto exchange = Match([](int, int) { return true; },
                                [&](int hi, int lo, Weight& w) {
                                  if (!in_rest(hi) || !in_rest(lo)) return;
                                  const int p = pos[hi];
                                  Put(w, fewest_exchanges, p < pairs);
                                  Put(w, least_sum, size - p);
                                  // S1 entrants kept in S1' are those not moved down.
                                  const int64_t kept = p < pairs ? int64_t{1} << p : 0;
                                  Put(w, highest_down, (int64_t{1} << pairs) - kept);
                                  if (p >= pairs) Put(w, lowest_up, int64_t{1} << (size - 1 - p));
                                });
    std::vector<int> s1;
    std::vector<int> s2;
    for (int i : rest) {
      const int m = exchange[i];
      (in_rest(m) && m > i ? s1 : s2).push_back(i);
    }
    std::vector<int> s2_index(ctx_.round->entrants.size(), -1);
    for (int j = 0; j < static_cast<int>(s2.size()); ++j) s2_index[s2[j]] = j;
    std::vector<char> in_s1(ctx_.round->entrants.size(), 0);
    for (int i : s1) in_s1[i] = 1;

    // Passes 2..: S1's entrants in order take the lowest S2 index that keeps the best pairing,
    // as many per matching as the weight has room for. When the exchange pass already paired
    // S1's i-th with S2's i-th throughout, that is the first transposition: nothing to search.
    const int s2_size = static_cast<int>(s2.size());
    bool first_transposition = true;
    for (size_t k = 0; k < s1.size() && first_transposition; ++k) {
      first_transposition = exchange[s1[k]] == s2[k];
    }
    if (first_transposition) {
      for (int i : s1) {
        fixed_[i] = exchange[i];
        fixed_[exchange[i]] = i;
      }
      return;
    }
    size_t next = 0;
    while (next < s1.size()) {
      FieldLayout chunk_layout = weigher_->layout();
      std::vector<FieldLayout::Field> fields;
      std::vector<int> s1_slot(ctx_.round->entrants.size(), -1);
      for (size_t k = next; k < s1.size(); ++k) {
        const auto f = chunk_layout.Add(s2_size);
        if (f.level < 0) break;
        s1_slot[s1[k]] = static_cast<int>(fields.size());
        fields.push_back(f);
      }
      if (fields.empty()) break;  // no room at all: keep the quality pass's pairs
      const auto allowed = [&](int hi, int lo) {
        if (in_s1[hi] && fixed_[hi] == -2) {
          return in_rest(lo) && !in_s1[lo];  // S1 pairs within the remainder, against S2
        }
        if (in_rest(hi) && in_rest(lo)) return in_s1[hi] != in_s1[lo];
        return true;
      };
      const auto mate = Match(allowed, [&](int hi, int lo, Weight& w) {
        if (lo < 0) return;
        const int a = s1_slot[hi] >= 0 ? hi : lo;  // the S1 end, wherever it ranks
        const int b = a == hi ? lo : hi;
        if (s1_slot[a] < 0 || s2_index[b] < 0) return;
        Put(w, fields[s1_slot[a]], s2_size - s2_index[b]);
      });
      const size_t end = next + fields.size();
      for (; next < end; ++next) {
        const int i = s1[next];
        if (in_rest(mate[i])) {
          fixed_[i] = mate[i];
          fixed_[mate[i]] = i;
        }
      }
    }
  }

  const RoundContext& ctx_;
  std::vector<int> mdps_;
  std::vector<int> residents_;
  std::vector<int> window_;  // the next scoregroup: the matching's first try (Match)
  std::vector<int> below_;   // everyone below the bracket
  std::vector<int> bracket_;
  std::vector<char> in_bracket_;
  std::vector<char> in_next_;
  std::unique_ptr<CriteriaWeigher<K>> weigher_;
  std::vector<char> is_mdp_;
  bool mdps_decided_ = false;
  std::vector<int> fixed_;  // partner of a bracket entrant once decided; -2 while open
};

// C4 and C5 for the whole round: whether it can be paired at all, and the lowest score the
// PAB can go to.
absl::Status CheckCompletion(RoundContext& ctx) {
  const int n = static_cast<int>(ctx.round->entrants.size());
  std::vector<double> scores;
  for (const auto& e : ctx.round->entrants) scores.push_back(e.score);
  std::sort(scores.begin(), scores.end());
  scores.erase(std::unique(scores.begin(), scores.end()), scores.end());
  using W = LexWeight<2>;
  std::vector<WeightedEdge<W>> edges;
  for (int a = 0; a < n; ++a) {
    for (int b = a + 1; b < n; ++b) {
      if (ctx.may_meet[a][b]) edges.push_back({a, b, W{{1, 0}}});
    }
    if (ctx.odd && ctx.At(a).bye_eligible) {
      const int64_t low =
          static_cast<int64_t>(scores.size()) -
          (std::lower_bound(scores.begin(), scores.end(), ctx.At(a).score) - scores.begin());
      edges.push_back({a, n, W{{1, low}}});
    }
  }
  const auto mate = MaxWeightMatching(n + ctx.odd, edges);
  for (int a = 0; a < n; ++a) {
    if (mate[a] < 0) {
      return absl::FailedPreconditionError(
          "pairing: no pairing of this round satisfies the absolute criteria (C1-C3)");
    }
    if (mate[a] == n) ctx.bye_score = ctx.At(a).score;
  }
  return absl::OkStatus();
}

// A field where nobody has played, scored, had a bye or a forbidden opponent (a first round,
// as a rule) is one homogeneous bracket in which every candidate is as good as any other: no
// colour preferences, no floats, no rematches. The first candidate — S1's i-th against S2's
// i-th, the last of S2 taking the PAB when the field is odd — is the pairing, and it needs no
// matching (which for a thousand entrants would take seconds).
std::optional<std::vector<Board>> PairFreshField(const SwissRound& round) {
  for (const SwissEntrant& e : round.entrants) {
    if (!e.met.empty() || !e.colours.empty() || e.score != 0 || !e.bye_eligible ||
        e.unplayed_rounds != round.entrants.front().unplayed_rounds) {
      return std::nullopt;
    }
  }
  const int n = static_cast<int>(round.entrants.size());
  const int half = n / 2;
  std::vector<std::pair<int, int>> pairs;
  for (int i = 0; i < half; ++i) pairs.emplace_back(i, half + i);
  return BoardsInOrder(round, std::move(pairs), n % 2 == 1 ? n - 1 : -1);
}

}  // namespace

absl::StatusOr<std::vector<Board>> PairDutchRound(const EventRecord& event, int round) {
  absl::StatusOr<SwissRound> prepared = PrepareSwissRound(event, round);
  if (!prepared.ok()) return prepared.status();
  RoundContext ctx;
  ctx.round = &*prepared;
  const int n = static_cast<int>(prepared->entrants.size());
  if (n == 0) return std::vector<Board>{};
  ctx.odd = n % 2 == 1;
  ctx.may_meet.assign(n, std::vector<char>(n, 0));
  for (int a = 0; a < n; ++a) {
    ctx.max_unplayed = std::max(ctx.max_unplayed, ctx.At(a).unplayed_rounds);
    for (int b = a + 1; b < n; ++b) {
      ctx.may_meet[a][b] = ctx.may_meet[b][a] = MayMeet(ctx.At(a), ctx.At(b));
    }
  }
  if (std::optional<std::vector<Board>> boards = PairFreshField(*prepared)) return *boards;
  if (absl::Status s = CheckCompletion(ctx); !s.ok()) return s;

  std::vector<std::pair<int, int>> pairs;
  std::vector<int> mdps;
  int group = 0;
  while (group < n) {
    int group_end = group;
    while (group_end < n && ctx.At(group_end).score == ctx.At(group).score) ++group_end;
    int next_end = group_end;
    while (next_end < n && ctx.At(next_end).score == ctx.At(group_end).score) ++next_end;
    std::vector<int> residents;
    for (int i = group; i < group_end; ++i) residents.push_back(i);
    std::vector<int> next;
    for (int i = group_end; i < next_end; ++i) next.push_back(i);
    std::vector<int> below;
    for (int i = group_end; i < n; ++i) below.push_back(i);
    // The weights get as many levels as the bracket's criteria need, plus room for the order
    // of candidates: the matching's cost grows with the levels.
    BracketPairer<16> wide(ctx, mdps, residents, next, below);
    const int levels = wide.QualityLevels();
    std::vector<int> downfloaters;
    if (levels + 2 <= 4) {
      BracketPairer<4>(ctx, mdps, residents, next, below).Pair(pairs, downfloaters);
    } else if (levels + 2 <= 8) {
      BracketPairer<8>(ctx, mdps, residents, next, below).Pair(pairs, downfloaters);
    } else {
      wide.Pair(pairs, downfloaters);
    }
    mdps = std::move(downfloaters);
    group = group_end;
  }
  int bye = -1;
  if (mdps.size() == 1 && ctx.odd) {
    bye = mdps.front();
  } else if (!mdps.empty()) {
    return absl::InternalError(
        absl::StrCat("pairing: ", mdps.size(), " entrants left unpaired after the last bracket"));
  }
  return BoardsInOrder(*prepared, std::move(pairs), bye);
}

}  // namespace boneyard::tournament
