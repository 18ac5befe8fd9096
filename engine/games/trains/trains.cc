#include "engine/games/trains/trains.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace boneyard::trains {

std::string TileName(int id) { return TileOf(id).ToString(); }

std::string PlacedName(int id, int first) {
  return absl::StrCat(first, "-", TileOther(id, first));
}

int MaskPips(const TileMask& mask) {
  int pips = 0;
  mask.ForEach([&](int id) { pips += TilePips(id); });
  return pips;
}

// ----- Deal tables -----

int HandSize(DealTable table, int max_pip, int players) {
  if (players < 2 || players > kMaxSeats) return 0;
  const int i = players - 2;
  static constexpr int kD9[7] = {20, 14, 11, 9, 7, 0, 0};
  static constexpr int kD9Sheet003[7] = {20, 14, 11, 9, 7, 5, 5};
  static constexpr int kD12[7] = {0, 0, 18, 14, 12, 10, 9};
  static constexpr int kSheet004[7] = {16, 15, 14, 12, 11, 10, 9};
  static constexpr int kSheet002[7] = {15, 15, 15, 14, 12, 10, 9};
  switch (table) {
    case DealTable::kSheet000:
      return max_pip == 9 ? kD9[i] : max_pip == 12 ? kD12[i] : 0;
    case DealTable::kSheet003:
      return max_pip == 9 ? kD9Sheet003[i] : max_pip == 12 ? kD12[i] : 0;
    case DealTable::kSheet004:
      return max_pip == 12 ? kSheet004[i] : 0;
    case DealTable::kSheet002:
      return max_pip == 12 ? kSheet002[i] : 0;
    case DealTable::kSheet002Removal:
      return max_pip == RemovalSet(players) ? 10 : 0;
  }
  return 0;
}

int RemovalSet(int players) { return players >= 2 && players <= 6 ? players + 5 : -1; }

absl::StatusOr<int> ResolveHandSize(absl::string_view game, DealTable table, int max_pip,
                                    int players, int hand_size_override) {
  const int round_tiles = DistinctTiles(max_pip) - 1;
  int hand = hand_size_override > 0 ? hand_size_override : HandSize(table, max_pip, players);
  if (hand == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        game, ": the rule sheet's deal table has no entry for double-", max_pip, " with ",
        players, " players (rule options 'set' and 'players'; 'hand_size' sets one)"));
  }
  if (hand * players > round_tiles) {
    return absl::InvalidArgumentError(absl::StrCat(
        game, ": rule option 'hand_size' ", hand, " for ", players,
        " players needs more tiles than double-", max_pip, " has"));
  }
  return hand;
}

absl::StatusOr<int> ResolveRounds(int max_pip, int rounds_option) {
  if (rounds_option > max_pip + 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "rule option 'rounds' ", rounds_option, " exceeds the ", max_pip + 1,
        " doubles of a double-", max_pip, " set"));
  }
  return rounds_option > 0 ? rounds_option : max_pip + 1;
}

std::vector<OptionSpec> SharedOptions(int default_set, int min_set, std::string set_description) {
  return {
      OptionSpec::Int("players", 4, 2, kMaxSeats, "number of players"),
      OptionSpec::Int("set", default_set, min_set, kMaxSetPip, std::move(set_description)),
      OptionSpec::Int("hand_size", 0, 0, 45, "tiles per hand; 0 = the rule sheet's deal table"),
      OptionSpec::Int("rounds", 0, 0, kMaxSetPip + 1,
                      "rounds to play, one double each, counting down; 0 = one per double"),
  };
}

absl::StatusOr<RoundsSetup> ResolveSetup(absl::string_view game, const Rules& rules,
                                         DealTable table) {
  RoundsSetup setup;
  setup.players = static_cast<int>(rules.GetInt("players"));
  setup.max_pip = static_cast<int>(rules.GetInt("set"));
  absl::StatusOr<int> hand = ResolveHandSize(game, table, setup.max_pip, setup.players,
                                             static_cast<int>(rules.GetInt("hand_size")));
  if (!hand.ok()) return hand.status();
  setup.hand_size = *hand;
  absl::StatusOr<int> rounds = ResolveRounds(setup.max_pip, static_cast<int>(rules.GetInt("rounds")));
  if (!rounds.ok()) return rounds.status();
  setup.rounds = *rounds;
  return setup;
}

std::vector<std::string> Words(absl::string_view text) {
  return absl::StrSplit(absl::AsciiStrToLower(text), absl::ByAnyChar(" \t\r\n"),
                        absl::SkipEmpty());
}

// ----- RoundDeck -----

void RoundDeck::Start(const TileMask& tiles, int players, int hand_size, const Deal* deal,
                      uint64_t seed) {
  players_ = static_cast<int8_t>(players);
  hand_size_ = static_cast<int8_t>(hand_size);
  size_ = static_cast<int16_t>(tiles.Count());
  if (deal != nullptr) {
    int i = 0;
    for (const auto& hand : deal->hands) {
      for (const Tile& t : hand) deck_[i++] = static_cast<uint8_t>(t.BaseId());
    }
    for (const Tile& t : deal->boneyard) deck_[i++] = static_cast<uint8_t>(t.BaseId());
  } else {
    int i = 0;
    tiles.ForEach([&](int id) { deck_[i++] = static_cast<uint8_t>(id); });
    Rng rng(seed);
    rng.Shuffle(deck_.data(), size_);
  }
  hands_ = {};
  counts_ = {};
  for (int s = 0; s < players; ++s) {
    for (int k = 0; k < hand_size; ++k) hands_[s].Set(deck_[s * hand_size + k]);
    counts_[s] = static_cast<uint8_t>(hand_size);
  }
  dealt_ = static_cast<int16_t>(players * hand_size);
  next_draw_ = dealt_;
}

TileMask RoundDeck::Boneyard() const {
  TileMask m;
  for (int i = next_draw_; i < size_; ++i) m.Set(deck_[i]);
  return m;
}

int RoundDeck::Draw(int seat) {
  const int id = deck_[next_draw_++];
  hands_[seat].Set(id);
  ++counts_[seat];
  return id;
}

void RoundDeck::Take(int seat, int id) {
  hands_[seat].Reset(id);
  --counts_[seat];
}

Deal RoundDeck::OriginalDeal() const {
  Deal deal;
  deal.hands.resize(players_);
  for (int s = 0; s < players_; ++s) {
    for (int k = 0; k < hand_size_; ++k) deal.hands[s].push_back(TileOf(deck_[s * hand_size_ + k]));
  }
  for (int i = dealt_; i < size_; ++i) deal.boneyard.push_back(TileOf(deck_[i]));
  return deal;
}

TileMask RoundDeck::HiddenFrom(int seat) const {
  TileMask hidden = Boneyard();
  for (int s = 0; s < players_; ++s) {
    if (s != seat) hidden |= hands_[s];
  }
  return hidden;
}

void RoundDeck::Redeal(int seat, Rng& rng) {
  std::array<uint8_t, kMaxTiles> pool{};
  int n = 0;
  HiddenFrom(seat).ForEach([&](int id) { pool[n++] = static_cast<uint8_t>(id); });
  rng.Shuffle(pool.data(), n);
  const std::array<TileMask, kMaxSeats> old = hands_;
  int k = 0;
  for (int s = 0; s < players_; ++s) {
    if (s == seat) continue;
    hands_[s] = TileMask();
    for (int i = 0; i < counts_[s]; ++i) hands_[s].Set(pool[k++]);
  }
  for (int i = next_draw_; i < size_; ++i) deck_[i] = pool[k++];
  // Each hidden hand's tiles take the places its old tiles had in the dealt part. The places
  // are found from the dealt part as it was: a place already rewritten for one hand may now
  // hold a tile another hand had before.
  const std::array<uint8_t, kMaxTiles> dealt = deck_;
  for (int s = 0; s < players_; ++s) {
    if (s == seat) continue;
    std::array<uint8_t, kMaxTiles> ids{};
    int m = 0;
    hands_[s].ForEach([&](int id) { ids[m++] = static_cast<uint8_t>(id); });
    int used = 0;
    for (int i = 0; i < next_draw_; ++i) {
      if (old[s].Test(dealt[i])) deck_[i] = ids[used++];
    }
  }
}

std::string RoundDeck::ToString() const {
  auto names = [](const TileMask& m) {
    std::vector<std::string> out;
    m.ForEach([&](int id) { out.push_back(TileName(id)); });
    return absl::StrJoin(out, " ");
  };
  std::string out;
  for (int s = 0; s < players_; ++s) absl::StrAppend(&out, " | hand ", s, ": ", names(hands_[s]));
  absl::StrAppend(&out, " | boneyard:");
  for (int i = next_draw_; i < size_; ++i) absl::StrAppend(&out, " ", TileName(deck_[i]));
  absl::StrAppend(&out, " | dealt:");
  for (int i = 0; i < next_draw_; ++i) absl::StrAppend(&out, " ", TileName(deck_[i]));
  return out;
}

// ----- RoundsGame -----

RoundsGame::RoundsGame(std::string name, Rules rules, int players, int max_pip, int hand_size,
                       int rounds, bool centre_out_of_deal)
    : Game(std::move(name), std::move(rules), players, Teams{}, *TileSet::DoubleN(max_pip),
           ScoreOrder::kLowerWins),
      players_(players),
      max_pip_(max_pip),
      hand_size_(hand_size),
      rounds_(rounds),
      centre_out_(centre_out_of_deal) {}

TileMask RoundsGame::RoundTiles(int round) const {
  TileMask tiles;
  const int centre = DoubleId(CentrePip(std::min(round, rounds_ - 1)));
  for (int id = 0; id < DistinctTiles(max_pip_); ++id) {
    if (!(centre_out_ && id == centre)) tiles.Set(id);
  }
  return tiles;
}

absl::Status RoundsGame::ValidateDeal(int round, const Deal& deal) const {
  if (round >= rounds_) {
    return absl::InvalidArgumentError(
        absl::StrCat("round ", round + 1, " deal: the match has only ", rounds_, " rounds"));
  }
  std::vector<Tile> expected;
  RoundTiles(round).ForEach([&](int id) { expected.push_back(TileOf(id)); });
  return CheckDealTiles(round, deal, expected, std::vector<int>(players_, hand_size_));
}

// ----- Results -----

const char* RoundEndName(RoundEnd e) { return e == RoundEnd::kDomino ? "domino" : "blocked"; }

nlohmann::json RoundResult::ToJson() const {
  return {{"round", round},   {"ended_by", RoundEndName(ended_by)}, {"seat", seat},
          {"pips", pips},     {"points", points}};
}

std::string RoundResult::ToText() const {
  return absl::StrCat("round ", round + 1, " ended ",
                      ended_by == RoundEnd::kDomino ? absl::StrCat("by seat ", seat, " dominoing")
                                                    : std::string("blocked"),
                      ": pips left ", absl::StrJoin(pips, " / "), ", points ",
                      absl::StrJoin(points, " / "));
}

std::optional<RoundResult> LastRound::ToResult(int players) const {
  if (!valid) return std::nullopt;
  RoundResult r;
  r.round = round;
  r.ended_by = ended_by;
  r.seat = seat;
  for (int s = 0; s < players; ++s) {
    r.pips.push_back(pips[s]);
    r.points.push_back(points[s]);
  }
  return r;
}

std::string LastRound::ToString(int players) const {
  if (!valid) return "";
  return absl::StrCat(" | last ", ToResult(players)->ToText());
}

// ----- RoundsState -----

RoundsState::RoundsState(std::shared_ptr<const Game> game, uint64_t seed,
                         std::shared_ptr<const std::vector<Deal>> deals)
    : State(std::move(game)),
      deals_(std::move(deals)),
      seed_(seed),
      rg_(static_cast<const RoundsGame*>(&this->game())),
      players_(static_cast<int8_t>(rg_->players())) {}

std::vector<int> RoundsState::Scores() const {
  return std::vector<int>(scores_.begin(), scores_.begin() + players_);
}

TileMask RoundsState::HiddenFrom(int seat) const {
  if (terminal_) return TileMask();
  return deck_.HiddenFrom(seat);
}

nlohmann::json RoundsState::ResultDetails() const { return {{"rounds", round_ + 1}}; }

std::unique_ptr<State> RoundsState::Determinize(int seat, Rng& rng) const {
  std::unique_ptr<State> copy = Clone();
  if (!terminal_) static_cast<RoundsState&>(*copy).deck_.Redeal(seat, rng);
  return copy;
}

absl::Status RoundsState::ExplainDrawOrPass(bool is_draw, const std::string& a_play, bool drew) {
  if (!a_play.empty()) {
    return absl::FailedPreconditionError(
        absl::StrCat("you must play when able: \"", a_play, "\" is legal"));
  }
  if (is_draw) {
    return absl::FailedPreconditionError(
        drew ? "you draw only one tile for each play you owe: it does not fit, so you pass"
             : "the boneyard is empty: unable to play, you pass");
  }
  return absl::FailedPreconditionError(
      "draw one tile first: you may pass only after drawing, or with the boneyard empty");
}

void RoundsState::DealRound(int round) {
  round_ = round;
  const Deal* deal = round < static_cast<int>(deals_->size()) ? &(*deals_)[round] : nullptr;
  deck_.Start(rg_->RoundTiles(round), players_, rg_->hand_size(), deal,
              DeriveSeed(seed_, static_cast<uint64_t>(round)));
  current_ = static_cast<int8_t>(round % players_);
}

bool RoundsState::ScoreRound(RoundEnd why, int seat, int double_blank_penalty) {
  LastRound result;
  result.valid = true;
  result.ended_by = why;
  result.seat = static_cast<int8_t>(why == RoundEnd::kDomino ? seat : kNobody);
  result.round = round_;
  for (int s = 0; s < players_; ++s) {
    int points = deck_.HandPips(s);
    if (deck_.hand(s).Test(DoubleId(0))) points += double_blank_penalty;
    result.pips[s] = static_cast<int16_t>(deck_.HandPips(s));
    result.points[s] = static_cast<int16_t>(points);
    scores_[s] += points;
  }
  last_ = result;
  if (round_ + 1 < rg_->rounds()) return true;
  terminal_ = true;
  return false;
}

void RoundsState::FillView(View& view, int seat) const {
  view.game = game().name();
  view.seat = seat;
  view.current_seat = CurrentSeat();
  view.round = round_;
  view.terminal = terminal_;
  if (seat >= 0 && seat < players_) {
    deck_.hand(seat).ForEach([&](int id) { view.hand.push_back(TileOf(id)); });
  }
  for (int s = 0; s < players_; ++s) view.hand_counts.push_back(deck_.hand_count(s));
  view.boneyard_count = deck_.boneyard_count();
  view.scores = Scores();
  if (!terminal_ && seat == current_) view.legal_actions = LegalActionStrings();
}

absl::Status RoundsState::CheckTiles(const TileMask& placed, int num_placed) const {
  const TileMask all = rg_->RoundTiles(round_);
  TileMask seen = deck_.Boneyard();
  int count = deck_.boneyard_count() + num_placed;
  for (int s = 0; s < players_; ++s) {
    if (!(seen & deck_.hand(s)).Empty()) return absl::InternalError("a tile is in two places");
    if (deck_.hand(s).Count() != deck_.hand_count(s)) return absl::InternalError("bad hand count");
    seen |= deck_.hand(s);
    count += deck_.hand_count(s);
  }
  if (!(seen & placed).Empty()) return absl::InternalError("a played tile is also held");
  seen |= placed;
  if (!(seen == all) || count != all.Count()) {
    return absl::InternalError("tiles are not conserved");
  }
  for (int s = 0; s < players_; ++s) {
    if (scores_[s] < 0) return absl::InternalError("negative total");
  }
  if (!terminal_ && (current_ < 0 || current_ >= players_)) return absl::InternalError("bad seat");
  return absl::OkStatus();
}

std::string RoundsState::BaseString() const {
  return absl::StrCat("round ", round_ + 1, terminal_ ? " over" : "", " | seat ", current_,
                      " | totals ", absl::StrJoin(Scores(), " "), deck_.ToString(),
                      last_.ToString(players_));
}

absl::StatusOr<int> RoundsState::ParseTileId(absl::string_view word) const {
  absl::StatusOr<Tile> tile = Tile::Parse(word);
  if (!tile.ok()) return tile.status();
  if (tile->copy != 0 || tile->hi > rg_->max_pip()) {
    return absl::InvalidArgumentError(
        absl::StrCat("this match uses a double-", rg_->max_pip(), " set"));
  }
  return tile->BaseId();
}

}  // namespace boneyard::trains
