#include "engine/games/muggins/muggins.h"

#include <algorithm>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace boneyard::muggins {
namespace {

constexpr uint8_t Bit(End end) { return static_cast<uint8_t>(1u << end); }
constexpr uint32_t TileBit(int id) { return uint32_t{1} << id; }

std::vector<int> PipList(uint32_t pips) {
  std::vector<int> out;
  for (; pips; pips &= pips - 1) out.push_back(std::countr_zero(pips));
  return out;
}

std::string TileName(int id) { return TileOf(id).ToString(); }

constexpr std::array<End, 4> kPlayEnds = {kLeft, kRight, kUp, kDown};

}  // namespace

const char* EndName(End end) {
  switch (end) {
    case kLeft: return "left";
    case kRight: return "right";
    case kUp: return "up";
    case kDown: return "down";
    default: return "";
  }
}

std::string PlacedTile::ToString() const { return absl::StrCat(first, "-", second); }

// ----- Layout -----

int Layout::Count() const {
  // A lone tile's two ends are one tile: 5-5 alone counts 10, not 20.
  if (tiles_ <= 1) return tiles_ == 0 ? 0 : pip_[kLeft] + pip_[kRight];
  int count = HalfOrBoth(kLeft) + HalfOrBoth(kRight);
  if (ArmPlayed(kUp)) count += HalfOrBoth(kUp);
  if (ArmPlayed(kDown)) count += HalfOrBoth(kDown);
  return count;
}

void Layout::Place(int tile, End end) {
  const int hi = TileHi(tile);
  const int lo = TileLo(tile);
  const bool is_double = hi == lo;
  if (end == kOpening) {
    pip_[kLeft] = static_cast<int8_t>(hi);
    pip_[kRight] = static_cast<int8_t>(lo);
    if (is_double) {
      // The opening double is the spinner with both line sides still empty.
      doubles_ = Bit(kLeft) | Bit(kRight);
      spinner_at_ = Bit(kLeft) | Bit(kRight);
      spinner_pip_ = static_cast<int8_t>(hi);
      pip_[kUp] = pip_[kDown] = static_cast<int8_t>(hi);
    }
  } else {
    const int matched = pip_[end];
    pip_[end] = static_cast<int8_t>(hi == matched ? lo : hi);
    doubles_ = is_double ? (doubles_ | Bit(end)) : (doubles_ & ~Bit(end));
    spinner_at_ &= ~Bit(end);  // the tile at this end, if it was the spinner, is now covered
    if (end == kUp || end == kDown) {
      played_ |= Bit(end);
    } else if (is_double && spinner_pip_ < 0) {
      // The first double played at a line end: its line side is already filled.
      spinner_pip_ = static_cast<int8_t>(matched);
      spinner_at_ = Bit(end);
      pip_[kUp] = pip_[kDown] = static_cast<int8_t>(matched);
    }
  }
  ++tiles_;
  Refresh();
}

void Layout::Refresh() {
  uint32_t pips = 0;
  if (tiles_ > 0) {
    pips = (1u << pip_[kLeft]) | (1u << pip_[kRight]);
    if (arms_open()) pips |= (1u << pip_[kUp]) | (1u << pip_[kDown]);
  }
  open_pips_ = static_cast<uint8_t>(pips);
  playable_ = tiles_ == 0 ? kAllTiles : TilesWithAnyPip(pips);
}

// ----- Game -----

GameSpec Spec() {
  GameSpec spec;
  spec.name = "muggins";
  spec.title = "Muggins (All Fives)";
  spec.summary =
      "Block-and-draw dominoes with a spinner; score when the open ends add up to a multiple "
      "of five; first to the target wins.";
  spec.min_seats = 2;
  spec.max_seats = kMaxPlayers;
  spec.default_bot = "greedy";
  spec.options = {
      OptionSpec::Int("players", 2, 2, kMaxPlayers, "2 players draw 7 tiles, 3 or 4 draw 5"),
      OptionSpec::Bool("teams", false,
                       "with players=4: partners sit opposite, teams {0,2} and {1,3}"),
      OptionSpec::Int("target", 250, 50, 1000, "points that win the match, at once"),
      OptionSpec::Bool("claim_scoring", false,
                       "scores must be claimed (\"... claim\"); the next player may steal an "
                       "unclaimed score with \"muggins\""),
  };
  spec.presets = {
      Preset{"two-player", "2 players, 7 tiles each", {{"players", int64_t{2}}}},
      Preset{"three-player", "3 players, 5 tiles each", {{"players", int64_t{3}}}},
      Preset{"four-player", "4 players, each for themselves", {{"players", int64_t{4}}}},
      Preset{"partners",
             "4 players in two teams, partners opposite",
             {{"players", int64_t{4}}, {"teams", true}}},
      Preset{"quick", "a short match to 100", {{"target", int64_t{100}}}},
  };
  spec.factory = [](const Rules& rules) -> absl::StatusOr<std::shared_ptr<const Game>> {
    const int players = static_cast<int>(rules.GetInt("players"));
    const bool teams = rules.GetBool("teams");
    if (teams && players != 4) {
      return absl::InvalidArgumentError(absl::StrCat(
          "rule option 'teams' needs players=4 (partners sit opposite each other), got players=",
          players));
    }
    return std::make_shared<MugginsGame>(rules, players, teams);
  };
  return spec;
}

MugginsGame::MugginsGame(Rules rules, int players, bool teams)
    : Game("muggins", std::move(rules), players, teams ? Teams{{0, 2}, {1, 3}} : Teams{},
           *TileSet::DoubleN(6), ScoreOrder::kHigherWins),
      players_(players),
      hand_size_(players == 2 ? 7 : 5),
      team_play_(teams),
      target_(static_cast<int>(this->rules().GetInt("target"))),
      claim_scoring_(this->rules().GetBool("claim_scoring")),
      num_sides_(teams ? 2 : players) {
  for (int s = 0; s < players_; ++s) side_of_[s] = teams ? s % 2 : s;
}

absl::Status MugginsGame::ValidateDeal(int round, const Deal& deal) const {
  return CheckDealTiles(round, deal, tile_set().AllTiles(),
                        std::vector<int>(players_, hand_size_));
}

std::unique_ptr<State> MugginsGame::MakeState(uint64_t seed,
                                              std::shared_ptr<const std::vector<Deal>> deals) const {
  return std::make_unique<MugginsState>(shared_from_this(), seed, std::move(deals));
}

// ----- View -----

namespace {

nlohmann::json PlacedJson(const std::vector<PlacedTile>& tiles) {
  nlohmann::json out = nlohmann::json::array();
  for (const PlacedTile& t : tiles) out.push_back(t.ToString());
  return out;
}

std::string PlacedText(const std::vector<PlacedTile>& tiles) {
  if (tiles.empty()) return "-";
  std::string out;
  for (const PlacedTile& t : tiles) absl::StrAppend(&out, "[", t.ToString(), "]");
  return out;
}

const char* RoundEndName(RoundEnd e) { return e == RoundEnd::kDomino ? "domino" : "blocked"; }

}  // namespace

nlohmann::json MugginsView::LayoutJson() const {
  nlohmann::json j;
  j["line"] = PlacedJson(line);
  j["spinner_index"] = spinner_index;
  j["spinner"] = spinner_index >= 0 ? nlohmann::json(line[spinner_index].ToString())
                                    : nlohmann::json(nullptr);
  j["up"] = PlacedJson(up);
  j["down"] = PlacedJson(down);
  nlohmann::json ends = nlohmann::json::object();
  for (End e : kPlayEnds) {
    if (!layout.IsOpen(e)) {
      ends[EndName(e)] = nullptr;
      continue;
    }
    nlohmann::json end = {{"pip", layout.Pip(e)}, {"double", layout.EndIsDouble(e)}};
    if (e == kUp || e == kDown) end["counted"] = layout.ArmPlayed(e);
    ends[EndName(e)] = end;
  }
  j["ends"] = ends;
  j["arms_open"] = layout.arms_open();
  j["count"] = count();
  j["void_pips"] = void_pips;
  j["unclaimed"] = unclaimed_points > 0
                       ? nlohmann::json{{"points", unclaimed_points}, {"by_seat", unclaimed_by}}
                       : nlohmann::json(nullptr);
  if (last_round.has_value()) {
    j["last_round"] = {{"round", last_round->round},
                       {"ended_by", RoundEndName(last_round->ended_by)},
                       {"seat", last_round->seat},
                       {"pips", last_round->pips},
                       {"points", last_round->points}};
  } else {
    j["last_round"] = nullptr;
  }
  j["target"] = target;
  j["claim_scoring"] = claim_scoring;
  return j;
}

std::string MugginsView::LayoutText() const {
  std::string out = absl::StrCat("line: ", PlacedText(line));
  if (spinner_index >= 0) {
    absl::StrAppend(&out, "   spinner ", line[spinner_index].ToString(),
                    layout.arms_open() ? "" : " (up/down open once left and right are played)");
  }
  if (!up.empty() || !down.empty()) {
    absl::StrAppend(&out, "\nup: ", PlacedText(up), "   down: ", PlacedText(down));
  }
  std::vector<std::string> ends;
  for (End e : kPlayEnds) {
    std::string pip = "-";
    if (layout.IsOpen(e)) {
      pip = absl::StrCat(layout.Pip(e));
      if (layout.EndIsDouble(e)) absl::StrAppend(&pip, " (double)");
      if ((e == kUp || e == kDown) && !layout.ArmPlayed(e)) absl::StrAppend(&pip, " (not counted)");
    }
    ends.push_back(absl::StrCat(EndName(e), " ", pip));
  }
  absl::StrAppend(&out, "\nends: ", absl::StrJoin(ends, ", "), "  count ", count());
  std::vector<std::string> voids;
  for (size_t s = 0; s < void_pips.size(); ++s) {
    if (!void_pips[s].empty()) {
      voids.push_back(absl::StrCat("seat ", s, " has no ", absl::StrJoin(void_pips[s], "/")));
    }
  }
  if (!voids.empty()) absl::StrAppend(&out, "\nknown voids: ", absl::StrJoin(voids, "; "));
  if (unclaimed_points > 0) {
    absl::StrAppend(&out, "\nunclaimed: seat ", unclaimed_by, " left ", unclaimed_points,
                    " points unclaimed (\"muggins\" steals them)");
  }
  if (last_round.has_value()) {
    absl::StrAppend(&out, "\nround ", last_round->round + 1, " ended ",
                    last_round->ended_by == RoundEnd::kDomino
                        ? absl::StrCat("by seat ", last_round->seat, " dominoing")
                        : std::string("blocked"),
                    ": pips left ", absl::StrJoin(last_round->pips, " / "), ", points ",
                    absl::StrJoin(last_round->points, " / "));
  }
  absl::StrAppend(&out, "\ntarget ", target, claim_scoring ? ", scores must be claimed" : "");
  return out;
}

// ----- State -----

MugginsState::MugginsState(std::shared_ptr<const Game> game, uint64_t seed,
                           std::shared_ptr<const std::vector<Deal>> deals)
    : State(std::move(game)),
      mg_(static_cast<const MugginsGame*>(&this->game())),
      deals_(std::move(deals)),
      seed_(seed),
      players_(static_cast<int8_t>(mg_->players())) {
  StartRound(0);
}

void MugginsState::StartRound(int round) {
  round_ = round;
  if (round < static_cast<int>(deals_->size())) {
    const Deal& deal = (*deals_)[round];
    int i = 0;
    for (const auto& hand : deal.hands) {
      for (const Tile& t : hand) deck_[i++] = static_cast<uint8_t>(IdOf(t));
    }
    for (const Tile& t : deal.boneyard) deck_[i++] = static_cast<uint8_t>(IdOf(t));
  } else {
    for (int i = 0; i < kTiles; ++i) deck_[i] = static_cast<uint8_t>(i);
    Rng rng(DeriveSeed(seed_, static_cast<uint64_t>(round)));
    rng.Shuffle(deck_.data(), kTiles);
  }
  // Hands are consecutive blocks of the deck; the rest is the boneyard, in order.
  const int h = mg_->hand_size();
  hands_ = {};
  for (int s = 0; s < players_; ++s) {
    for (int k = 0; k < h; ++k) hands_[s] |= TileBit(deck_[s * h + k]);
  }
  next_draw_ = static_cast<int8_t>(players_ * h);
  layout_ = Layout();
  num_plays_ = 0;
  voids_ = {};
  pending_points_ = 0;
  pending_by_ = kNobody;
  drew_on_turn_ = false;
  current_ = static_cast<int8_t>(round % players_);
}

void MugginsState::LegalActions(ActionList& out) const {
  if (terminal_) return;
  const uint32_t hand = hands_[current_];
  const bool claims = mg_->claim_scoring();
  if (layout_.empty()) {
    for (uint32_t h = hand; h; h &= h - 1) {
      const int t = std::countr_zero(h);
      out.push_back(PlayAction(t, kOpening, false));
      if (claims && CountScore(TilePips(t)) > 0) out.push_back(PlayAction(t, kOpening, true));
    }
  } else if (const uint32_t playable = hand & layout_.PlayableTiles(); playable != 0) {
    const int num_ends = layout_.arms_open() ? 4 : 2;
    for (uint32_t h = playable; h; h &= h - 1) {
      const int t = std::countr_zero(h);
      for (int i = 0; i < num_ends; ++i) {
        const End e = kPlayEnds[i];
        if (!TileHas(t, layout_.Pip(e))) continue;
        out.push_back(PlayAction(t, e, false));
        if (claims && ScoreOf(t, e) > 0) out.push_back(PlayAction(t, e, true));
      }
    }
  } else {
    out.push_back(BoneyardEmpty() ? kPass : kDraw);
  }
  if (pending_points_ > 0) out.push_back(kMuggins);
}

void MugginsState::Apply(Action action) {
  if (action == kMuggins) {
    const int points = pending_points_;
    pending_points_ = 0;
    pending_by_ = kNobody;
    Award(mg_->SideOf(current_), points, MatchEnd::kMuggins);
    return;  // the stealer's turn goes on
  }
  // Anything but "muggins" first thing in the turn lets an unclaimed score go.
  pending_points_ = 0;
  pending_by_ = kNobody;
  if (action == kDraw) {
    voids_[current_] = static_cast<uint8_t>(layout_.OpenPips());
    hands_[current_] |= TileBit(deck_[next_draw_++]);
    drew_on_turn_ = true;
    if (Blocked()) EndRound(RoundEnd::kBlocked, kNobody);
    return;  // the same seat goes on: play the drawn tile or draw again
  }
  if (action == kPass) {
    voids_[current_] = static_cast<uint8_t>(layout_.OpenPips());
    drew_on_turn_ = false;
    current_ = static_cast<int8_t>(NextSeat(current_));
    return;  // a pass changes nothing on the table, so it cannot block the game
  }
  ApplyPlay(action);
}

void MugginsState::ApplyPlay(Action action) {
  const int tile = ActionTile(action);
  const End end = ActionEnd(action);
  hands_[current_] &= ~TileBit(tile);
  layout_.Place(tile, end);
  plays_[num_plays_++] = static_cast<uint8_t>(tile | (end << 5));
  drew_on_turn_ = false;

  if (const int points = CountScore(layout_.Count()); points > 0) {
    if (!mg_->claim_scoring() || ActionClaims(action)) {
      Award(mg_->SideOf(current_), points, MatchEnd::kCount);
      if (terminal_) return;
    } else {
      pending_points_ = static_cast<int16_t>(points);
      pending_by_ = current_;
    }
  }
  if (hands_[current_] == 0) {
    EndRound(RoundEnd::kDomino, current_);
  } else if (Blocked()) {
    EndRound(RoundEnd::kBlocked, kNobody);
  } else {
    current_ = static_cast<int8_t>(NextSeat(current_));
  }
}

void MugginsState::Award(int side, int points, MatchEnd why) {
  if (points <= 0) return;
  scores_[side] += points;
  if (scores_[side] >= mg_->target()) {
    terminal_ = true;
    match_end_ = why;
  }
}

void MugginsState::EndRound(RoundEnd why, int seat) {
  // An unclaimed score of the last play dies with the round: nobody is left to call it.
  pending_points_ = 0;
  pending_by_ = kNobody;
  LastRound result;
  result.valid = true;
  result.ended_by = why;
  result.seat = static_cast<int8_t>(seat);
  result.round = round_;
  for (int s = 0; s < players_; ++s) result.pips[s] = static_cast<int16_t>(HandPips(hands_[s]));
  if (why == RoundEnd::kDomino) {
    ScoreDomino(seat, result);
  } else {
    ScoreBlocked(result);
  }
  last_ = result;
  for (int side = 0; side < mg_->num_sides() && !terminal_; ++side) {
    Award(side, result.points[side], why == RoundEnd::kDomino ? MatchEnd::kDomino
                                                              : MatchEnd::kBlocked);
  }
  if (!terminal_) StartRound(round_ + 1);
}

void MugginsState::ScoreDomino(int seat, LastRound& result) {
  const int side = mg_->SideOf(seat);
  int opponents = 0;  // a partner's pips are not added
  for (int s = 0; s < players_; ++s) {
    if (mg_->SideOf(s) != side) opponents += result.pips[s];
  }
  result.points[side] = static_cast<int16_t>(RoundToFive(opponents));
}

void MugginsState::ScoreBlocked(LastRound& result) {
  std::array<int, kMaxPlayers> side_pips{};
  int total = 0;
  for (int s = 0; s < players_; ++s) {
    side_pips[mg_->SideOf(s)] += result.pips[s];
    total += result.pips[s];
  }
  int lowest = 0;
  bool tie = false;
  for (int side = 1; side < mg_->num_sides(); ++side) {
    if (side_pips[side] < side_pips[lowest]) {
      lowest = side;
      tie = false;
    } else if (side_pips[side] == side_pips[lowest]) {
      tie = true;
    }
  }
  if (tie) return;  // ruling: a tie for the lowest sum scores nothing
  result.points[lowest] = static_cast<int16_t>(RoundToFive(total - side_pips[lowest]));
}

std::vector<int> MugginsState::Scores() const {
  std::vector<int> out(players_);
  for (int s = 0; s < players_; ++s) out[s] = scores_[mg_->SideOf(s)];
  return out;
}

uint32_t MugginsState::Boneyard() const {
  uint32_t tiles = 0;
  for (int i = next_draw_; i < kTiles; ++i) tiles |= TileBit(deck_[i]);
  return tiles;
}

Deal MugginsState::CurrentDeal() const {
  Deal deal;
  const int h = mg_->hand_size();
  deal.hands.resize(players_);
  for (int s = 0; s < players_; ++s) {
    for (int k = 0; k < h; ++k) deal.hands[s].push_back(TileOf(deck_[s * h + k]));
  }
  for (int i = players_ * h; i < kTiles; ++i) deal.boneyard.push_back(TileOf(deck_[i]));
  return deal;
}

std::unique_ptr<State> MugginsState::Clone() const {
  return std::make_unique<MugginsState>(*this);
}

// ----- Views -----

void MugginsState::BuildLine(MugginsView& view) const {
  // Replays the plays on a scratch layout to know which pip each tile met.
  Layout scratch;
  for (int i = 0; i < num_plays_; ++i) {
    const int tile = plays_[i] & 31;
    const End end = static_cast<End>(plays_[i] >> 5);
    const bool new_spinner = TileIsDouble(tile) && !scratch.has_spinner();
    if (end == kOpening) {
      view.line.push_back({TileHi(tile), TileLo(tile)});
      if (new_spinner) view.spinner_index = 0;
    } else {
      const int met = scratch.Pip(end);
      const int other = TileHi(tile) == met ? TileLo(tile) : TileHi(tile);
      if (end == kLeft) {
        view.line.insert(view.line.begin(), PlacedTile{other, met});
        if (view.spinner_index >= 0) ++view.spinner_index;
        if (new_spinner) view.spinner_index = 0;
      } else if (end == kRight) {
        view.line.push_back({met, other});
        if (new_spinner) view.spinner_index = static_cast<int>(view.line.size()) - 1;
      } else {
        (end == kUp ? view.up : view.down).push_back({met, other});
      }
    }
    scratch.Place(tile, end);
  }
}

std::unique_ptr<View> MugginsState::ViewFor(int seat) const {
  auto view = std::make_unique<MugginsView>();
  view->game = game().name();
  view->seat = seat;
  view->current_seat = CurrentSeat();
  view->round = round_;
  view->terminal = terminal_;
  if (seat >= 0 && seat < players_) {
    // Ascending tile ids are ascending tiles (high pip, then low pip).
    for (uint32_t h = hands_[seat]; h; h &= h - 1) view->hand.push_back(TileOf(std::countr_zero(h)));
  }
  for (int s = 0; s < players_; ++s) view->hand_counts.push_back(std::popcount(hands_[s]));
  view->boneyard_count = boneyard_count();
  view->scores = Scores();
  if (!terminal_ && seat == current_) view->legal_actions = LegalActionStrings();
  view->layout = layout_;
  BuildLine(*view);
  for (int s = 0; s < players_; ++s) view->void_pips.push_back(PipList(voids_[s]));
  view->unclaimed_points = pending_points_;
  view->unclaimed_by = pending_by_;
  if (last_.valid) {
    RoundResult r;
    r.round = last_.round;
    r.ended_by = last_.ended_by;
    r.seat = last_.seat;
    for (int s = 0; s < players_; ++s) {
      r.pips.push_back(last_.pips[s]);
      r.points.push_back(last_.points[mg_->SideOf(s)]);
    }
    view->last_round = std::move(r);
  }
  view->target = mg_->target();
  view->claim_scoring = mg_->claim_scoring();
  return view;
}

TileMask MugginsState::HiddenFrom(int seat) const {
  uint32_t hidden = Boneyard();
  for (int s = 0; s < players_; ++s) {
    if (s != seat) hidden |= hands_[s];
  }
  TileMask mask;
  for (; hidden; hidden &= hidden - 1) mask.Set(std::countr_zero(hidden));
  return mask;
}

// ----- Determinization -----

namespace {

// Hidden tiles go to groups: each hidden hand (split in two for a seat that has just drawn:
// its constrained tiles and the one drawn tile that may fit), and the boneyard.
struct Redeal {
  static constexpr int kMaxGroups = kMaxPlayers + 2;
  int num_groups = 0;
  std::array<uint32_t, kMaxGroups> allowed{};
  std::array<int, kMaxGroups> need{};
  std::array<uint32_t, kMaxGroups> got{};
  std::array<uint8_t, kTiles> order{};  // boneyard tiles in drawing order
  int order_len = 0;

  int AddGroup(uint32_t allowed_tiles, int count) {
    allowed[num_groups] = allowed_tiles;
    need[num_groups] = count;
    return num_groups++;
  }
  void Clear() { got = {}; }
  bool Full(int g) const { return std::popcount(got[g]) >= need[g]; }

  // Shuffles the pool and fills the most constrained groups first, each with the first
  // allowed tiles in shuffled order. Can fail when groups compete for scarce tiles.
  bool Greedy(uint32_t pool, Rng& rng) {
    Clear();
    std::array<uint8_t, kTiles> ids{};
    int n = 0;
    for (uint32_t p = pool; p; p &= p - 1) ids[n++] = static_cast<uint8_t>(std::countr_zero(p));
    rng.Shuffle(ids.data(), n);
    std::array<int, kMaxGroups> by_scarcity{};
    for (int g = 0; g < num_groups; ++g) by_scarcity[g] = g;
    std::stable_sort(by_scarcity.begin(), by_scarcity.begin() + num_groups, [&](int a, int b) {
      return std::popcount(allowed[a] & pool) < std::popcount(allowed[b] & pool);
    });
    uint32_t left = pool;
    for (int k = 0; k < num_groups; ++k) {
      const int g = by_scarcity[k];
      for (int i = 0; i < n && !Full(g); ++i) {
        const uint32_t bit = TileBit(ids[i]);
        if ((left & bit) && (allowed[g] & bit)) {
          got[g] |= bit;
          left &= ~bit;
        }
      }
      if (!Full(g)) return false;
    }
    return true;
  }

  // Moves `tile` into some group, displacing tiles along an augmenting path if need be.
  bool Augment(int tile, uint32_t& visited, uint32_t fixed) {
    for (int g = 0; g < num_groups; ++g) {
      if (!(allowed[g] & TileBit(tile)) || (visited >> g & 1)) continue;
      visited |= 1u << g;
      if (!Full(g)) {
        got[g] |= TileBit(tile);
        return true;
      }
      for (uint32_t in = got[g] & ~fixed; in; in &= in - 1) {
        const int other = std::countr_zero(in);
        if (Augment(other, visited, fixed)) {
          got[g] = (got[g] & ~TileBit(other)) | TileBit(tile);
          return true;
        }
      }
    }
    return false;
  }

  // Complete (finds an assignment whenever one exists, given the forced tile) but less
  // evenly spread than Greedy: bipartite matching of tiles to group places.
  bool Matching(uint32_t pool, int forced_group, int forced_tile, Rng& rng) {
    Clear();
    uint32_t fixed = 0;
    if (forced_group >= 0) {
      fixed = TileBit(forced_tile);
      got[forced_group] = fixed;
      pool &= ~fixed;
    }
    std::array<uint8_t, kTiles> ids{};
    int n = 0;
    for (uint32_t p = pool; p; p &= p - 1) ids[n++] = static_cast<uint8_t>(std::countr_zero(p));
    rng.Shuffle(ids.data(), n);
    for (int i = 0; i < n; ++i) {
      uint32_t visited = 0;
      if (!Augment(ids[i], visited, fixed)) return false;
    }
    return true;
  }
};

}  // namespace

std::unique_ptr<State> MugginsState::Determinize(int seat, Rng& rng) const {
  auto copy = std::make_unique<MugginsState>(*this);
  if (terminal_) return copy;
  const uint32_t bone = Boneyard();
  uint32_t pool = bone;
  Redeal redeal;
  std::array<int, kMaxPlayers> group_of{};
  std::array<int, kMaxPlayers> free_group_of{};
  free_group_of.fill(-1);
  group_of.fill(-1);
  for (int s = 0; s < players_; ++s) {
    if (s == seat) continue;
    pool |= hands_[s];
    // A seat that drew or passed held no tile matching the ends of that moment, and has
    // only lost tiles since — except the tile it has just drawn, still on its turn.
    const uint32_t allowed = ~TilesWithAnyPip(voids_[s]) & kAllTiles;
    const int count = std::popcount(hands_[s]);
    if (s == current_ && drew_on_turn_) {
      group_of[s] = redeal.AddGroup(allowed, count - 1);
      free_group_of[s] = redeal.AddGroup(kAllTiles, 1);
    } else {
      group_of[s] = redeal.AddGroup(allowed, count);
    }
  }
  const int bone_group = redeal.AddGroup(kAllTiles, std::popcount(bone));

  // Everyone knows the round is not over: with an empty boneyard someone can still play.
  // If it is not the observer, some hidden hand must hold a tile that fits.
  const bool needs_player = BoneyardEmpty() && !(seat >= 0 && seat < players_ &&
                                                 (hands_[seat] & layout_.PlayableTiles()));
  auto install = [&]() {
    for (int s = 0; s < players_; ++s) {
      if (group_of[s] < 0) continue;
      copy->hands_[s] = redeal.got[group_of[s]];
      if (free_group_of[s] >= 0) copy->hands_[s] |= redeal.got[free_group_of[s]];
    }
    return !copy->Blocked();
  };

  bool done = false;
  for (int attempt = 0; attempt < 64 && !done; ++attempt) {
    done = redeal.Greedy(pool, rng) && install();
  }
  if (!done) {
    // Rare: tight voids. Matching always succeeds for some forced (seat, fitting tile) pair,
    // since the true hands are one such assignment.
    std::array<std::pair<int8_t, int8_t>, Redeal::kMaxGroups * kTiles> forced{};
    int num_forced = 0;
    if (needs_player) {
      for (int s = 0; s < players_; ++s) {
        for (int g : {group_of[s], free_group_of[s]}) {
          if (g < 0) continue;
          for (uint32_t t = redeal.allowed[g] & pool & layout_.PlayableTiles(); t; t &= t - 1) {
            forced[num_forced++] = {static_cast<int8_t>(g), static_cast<int8_t>(std::countr_zero(t))};
          }
        }
      }
      rng.Shuffle(forced.data(), num_forced);
    } else {
      forced[num_forced++] = {-1, -1};
    }
    for (int i = 0; i < num_forced && !done; ++i) {
      done = redeal.Matching(pool, forced[i].first, forced[i].second, rng) && install();
    }
  }
  if (!done) {
    // Unreachable while the state is consistent; keep the seat's view intact regardless.
    std::fputs("boneyard: muggins determinization found no consistent deal\n", stderr);
    std::abort();
  }

  // The boneyard in random order.
  std::array<uint8_t, kTiles> bone_ids{};
  int n = 0;
  for (uint32_t b = redeal.got[bone_group]; b; b &= b - 1) {
    bone_ids[n++] = static_cast<uint8_t>(std::countr_zero(b));
  }
  rng.Shuffle(bone_ids.data(), n);
  for (int i = 0; i < n; ++i) copy->deck_[next_draw_ + i] = bone_ids[i];
  // Rewrite the dealt/drawn part of the deck so CurrentDeal() of the copy tells nothing of
  // the true hidden hands: each hidden hand's tiles take the places of the old ones.
  for (int s = 0; s < players_; ++s) {
    if (group_of[s] < 0) continue;
    uint32_t fresh = copy->hands_[s];
    for (int i = 0; i < next_draw_; ++i) {
      if (hands_[s] & TileBit(deck_[i])) {
        copy->deck_[i] = static_cast<uint8_t>(std::countr_zero(fresh));
        fresh &= fresh - 1;
      }
    }
  }
  return copy;
}

// ----- Notation -----

std::string MugginsState::ActionToString(Action action) const {
  if (action == kDraw) return "draw";
  if (action == kPass) return "pass";
  if (action == kMuggins) return "muggins";
  if (!IsPlay(action) || ActionEnd(action) > kDown) return absl::StrCat("?", action);
  std::string out = TileName(ActionTile(action));
  if (ActionEnd(action) != kOpening) absl::StrAppend(&out, " ", EndName(ActionEnd(action)));
  if (ActionClaims(action)) absl::StrAppend(&out, " claim");
  return out;
}

absl::StatusOr<Action> MugginsState::ParseAction(absl::string_view text) const {
  const std::string lower = absl::AsciiStrToLower(text);
  const std::vector<absl::string_view> words =
      absl::StrSplit(lower, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
  auto malformed = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "' is not a muggins action", why,
        " (write \"6-4\" for a round's first tile, \"6-4 left|right|up|down\" later, either "
        "optionally followed by \"claim\"; or \"draw\", \"pass\", \"muggins\")"));
  };
  if (words.empty()) return malformed("");
  if (words.size() == 1) {
    if (words[0] == "draw") return kDraw;
    if (words[0] == "pass") return kPass;
    if (words[0] == "muggins") return kMuggins;
  }
  absl::StatusOr<Tile> tile = Tile::Parse(words[0]);
  if (!tile.ok()) return malformed(absl::StrCat(": ", tile.status().message()));
  if (tile->hi > 6 || tile->copy != 0) return malformed(": muggins uses a double-6 set");
  size_t i = 1;
  End end = kOpening;
  if (i < words.size()) {
    for (End e : kPlayEnds) {
      if (words[i] == EndName(e)) {
        end = e;
        ++i;
        break;
      }
    }
  }
  bool claim = false;
  if (i < words.size() && words[i] == "claim") {
    claim = true;
    ++i;
  }
  if (i < words.size()) return malformed(absl::StrCat(": unexpected '", words[i], "'"));
  return PlayAction(IdOf(*tile), end, claim);
}

// ----- Explaining illegal moves -----

std::optional<Action> MugginsState::SomePlay() const {
  ActionList legal;
  LegalActions(legal);
  for (Action a : legal) {
    if (IsPlay(a)) return a;
  }
  return std::nullopt;
}

absl::Status MugginsState::ExplainIllegal(Action action) const {
  if (IsLegal(action)) return absl::OkStatus();
  if (terminal_) return absl::FailedPreconditionError("the match is over");
  const std::optional<Action> play = SomePlay();
  auto must_play = [&]() {
    return absl::FailedPreconditionError(absl::StrCat(
        "you must play when able: ", TileName(ActionTile(*play)), " fits (\"",
        ActionToString(*play), "\"); draw or pass only when no tile of yours fits an open end"));
  };
  if (action == kMuggins) {
    if (!mg_->claim_scoring()) {
      return absl::FailedPreconditionError(
          "muggins is only called with claim_scoring=true; here every score counts at once");
    }
    return absl::FailedPreconditionError(
        "there is nothing to steal: muggins may be called only first thing in your turn, "
        "right after the previous player left a score unclaimed");
  }
  if (action == kDraw) {
    if (play.has_value()) return must_play();
    return absl::FailedPreconditionError(
        "the boneyard is empty: with no tile that fits, you pass");
  }
  if (action == kPass) {
    if (play.has_value()) return must_play();
    return absl::FailedPreconditionError(absl::StrCat(
        "you cannot pass while the boneyard has ", boneyard_count(),
        " tiles: draw until a tile fits"));
  }
  if (IsPlay(action) && ActionEnd(action) <= kDown) return ExplainPlay(action);
  return State::ExplainIllegal(action);
}

absl::Status MugginsState::ExplainPlay(Action action) const {
  const int tile = ActionTile(action);
  const End end = ActionEnd(action);
  const std::string name = TileName(tile);
  if (!(hands_[current_] & TileBit(tile))) {
    return absl::FailedPreconditionError(absl::StrCat(name, " is not in your hand"));
  }
  if (end == kOpening && !layout_.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the round's first tile is already down: name the end to play on, as in \"", name,
        " left\" (ends: left, right, and up/down once the spinner allows)"));
  }
  if (end != kOpening && layout_.empty()) {
    return absl::FailedPreconditionError(absl::StrCat(
        "the round's first tile goes alone in the centre, with no end: write \"", name, "\""));
  }
  if ((end == kUp || end == kDown) && !layout_.arms_open()) {
    if (!layout_.has_spinner()) {
      return absl::FailedPreconditionError(absl::StrCat(
          "there is no spinner yet: ", EndName(end),
          " is a side of the first double played, and none has been played"));
    }
    return absl::FailedPreconditionError(absl::StrCat(
        "the spinner's up and down sides open only after its left and right both have a "
        "tile; ", EndName(end), " is not open yet"));
  }
  if (end != kOpening && !TileHas(tile, layout_.Pip(end))) {
    return absl::FailedPreconditionError(absl::StrCat(
        name, " does not match the ", EndName(end), " end (", layout_.Pip(end), ")"));
  }
  if (ActionClaims(action)) {
    if (!mg_->claim_scoring()) {
      return absl::FailedPreconditionError(
          "claims are only used with claim_scoring=true; here every score counts at once");
    }
    const int count = end == kOpening ? TilePips(tile) : layout_.CountAfter(tile, end);
    return absl::FailedPreconditionError(absl::StrCat(
        "\"", ActionToString(action & ~Action{1}), "\" makes a count of ", count,
        ", not a positive multiple of five: there is nothing to claim"));
  }
  return State::ExplainIllegal(action);
}

// ----- Checks and text -----

absl::Status MugginsState::CheckInvariants() const {
  uint32_t dealt = 0;
  for (uint8_t id : deck_) {
    if (id >= kTiles || (dealt & TileBit(id))) {
      return absl::InternalError("the round's deck is not the 28 tiles once each");
    }
    dealt |= TileBit(id);
  }
  uint32_t seen = Boneyard();
  int held = 0;
  for (int s = 0; s < kMaxPlayers; ++s) {
    if (s >= players_ && hands_[s] != 0) return absl::InternalError("an empty seat holds tiles");
    if (seen & hands_[s]) return absl::InternalError("a tile is in two places");
    seen |= hands_[s];
    held += std::popcount(hands_[s]);
  }
  Layout replay;
  for (int i = 0; i < num_plays_; ++i) {
    const int tile = plays_[i] & 31;
    const End end = static_cast<End>(plays_[i] >> 5);
    if (tile >= kTiles || !replay.Fits(tile, end) || (seen & TileBit(tile))) {
      return absl::InternalError(absl::StrCat("play ", i + 1, " (", tile, ") is not consistent"));
    }
    seen |= TileBit(tile);
    replay.Place(tile, end);
  }
  if (seen != kAllTiles) return absl::InternalError("tiles were lost");
  if (held + boneyard_count() + num_plays_ != kTiles) {
    return absl::InternalError("tile counts do not add up to 28");
  }
  if (!(replay == layout_)) return absl::InternalError("the layout disagrees with the plays");
  int reached = 0;
  for (int side = 0; side < mg_->num_sides(); ++side) {
    if (scores_[side] < 0 || scores_[side] % 5 != 0) {
      return absl::InternalError("a score is not a multiple of five");
    }
    if (scores_[side] >= mg_->target()) ++reached;
  }
  if (terminal_ != (reached > 0) || reached > 1) {
    return absl::InternalError("the match end disagrees with the target");
  }
  if (terminal_) return absl::OkStatus();
  if (current_ < 0 || current_ >= players_) return absl::InternalError("bad current seat");
  if (Blocked()) return absl::InternalError("the round is blocked but not over");
  for (int s = 0; s < players_; ++s) {
    if (hands_[s] == 0) return absl::InternalError("a seat dominoed but the round goes on");
  }
  if (pending_points_ != 0 &&
      (!mg_->claim_scoring() || CountScore(pending_points_) != pending_points_ ||
       pending_by_ == current_)) {
    return absl::InternalError("an unclaimed score is pending where it cannot be");
  }
  if (drew_on_turn_ && (layout_.empty() || (voids_[current_] & ~layout_.OpenPips()))) {
    return absl::InternalError("a draw is pending but the ends changed");
  }
  return absl::OkStatus();
}

std::string MugginsState::ToString() const {
  auto tiles = [](uint32_t mask) {
    std::vector<std::string> names;
    for (; mask; mask &= mask - 1) names.push_back(TileName(std::countr_zero(mask)));
    return absl::StrJoin(names, " ");
  };
  std::string out = absl::StrCat("round ", round_ + 1, terminal_ ? " over" : "", " | seat ",
                                 current_, " to play | scores");
  for (int side = 0; side < mg_->num_sides(); ++side) absl::StrAppend(&out, " ", scores_[side]);
  for (int s = 0; s < players_; ++s) {
    absl::StrAppend(&out, " | hand ", s, ": ", tiles(hands_[s]), " void ",
                    absl::StrJoin(PipList(voids_[s]), "/"));
  }
  absl::StrAppend(&out, " | boneyard:");
  for (int i = next_draw_; i < kTiles; ++i) absl::StrAppend(&out, " ", TileName(deck_[i]));
  absl::StrAppend(&out, " | plays:");
  for (int i = 0; i < num_plays_; ++i) {
    absl::StrAppend(&out, " ", ActionToString(PlayAction(plays_[i] & 31,
                                                         static_cast<End>(plays_[i] >> 5), false)),
                    ";");
  }
  absl::StrAppend(&out, " | count ", layout_.Count(), " | dealt:");
  for (int i = 0; i < next_draw_; ++i) absl::StrAppend(&out, " ", TileName(deck_[i]));
  if (pending_points_ > 0) {
    absl::StrAppend(&out, " | unclaimed ", pending_points_, " by seat ", pending_by_);
  }
  if (drew_on_turn_) absl::StrAppend(&out, " | drawing");
  if (last_.valid) {
    absl::StrAppend(&out, " | last round ", last_.round + 1, " ",
                    RoundEndName(last_.ended_by), " seat ", last_.seat, " points");
    for (int side = 0; side < mg_->num_sides(); ++side) {
      absl::StrAppend(&out, " ", last_.points[side]);
    }
  }
  return out;
}

nlohmann::json MugginsState::ResultDetails() const {
  const char* ended_by = "";
  switch (match_end_) {
    case MatchEnd::kCount: ended_by = "count"; break;
    case MatchEnd::kMuggins: ended_by = "muggins"; break;
    case MatchEnd::kDomino: ended_by = "domino"; break;
    case MatchEnd::kBlocked: ended_by = "blocked"; break;
    case MatchEnd::kNone: break;
  }
  return {{"rounds", round_ + 1}, {"ended_by", ended_by}};
}

}  // namespace boneyard::muggins
