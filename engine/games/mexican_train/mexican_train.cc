#include "engine/games/mexican_train/mexican_train.h"

#include <bit>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace boneyard::mexican_train {
namespace {

using trains::TileHas;
using trains::TileIsDouble;
using trains::TileName;
using trains::TileOther;
using trains::TilesWithPip;

std::string TrainName(int train) {
  return train == kMexican ? std::string("mexican") : absl::StrCat("train ", train);
}

absl::StatusOr<trains::DealTable> TableOf(const std::string& name) {
  if (name == "sheet000") return trains::DealTable::kSheet000;
  if (name == "sheet004") return trains::DealTable::kSheet004;
  if (name == "sheet002") return trains::DealTable::kSheet002;
  if (name == "sheet002_removal") return trains::DealTable::kSheet002Removal;
  return absl::InvalidArgumentError(absl::StrCat("unknown deal_table ", name));
}

}  // namespace

// ----- Game -----

GameSpec Spec() {
  GameSpec spec;
  spec.name = "mexican_train";
  spec.title = "Mexican Train";
  spec.summary =
      "Build your own train from the round's engine, share the Mexican train, board marked "
      "trains and satisfy open doubles; lowest total after one round per double wins.";
  spec.min_seats = 2;
  spec.max_seats = kMaxSeats;
  spec.default_bot = "greedy";
  spec.options = trains::SharedOptions(12, 6, "double-N set: 9 or 12 (7..11 with sheet002_removal)");
  spec.options.insert(spec.options.end(), {
      OptionSpec::Choice("deal_table", "sheet000",
                         {"sheet000", "sheet004", "sheet002", "sheet002_removal"},
                         "tiles per hand: sheet 000 (double-9 2..6 players, double-12 4..8), "
                         "sheet 004 (double-12, 2..8), sheet 002 (double-12, 2..8) or sheet "
                         "002's removal table (10 each from double-(players+5))"),
      OptionSpec::Choice("double_chain", "two", {"two", "unlimited"},
                         "two: a second double only when a third tile from hand closes one "
                         "(sheet 000); unlimited: doubles chain, the doubler may close only the "
                         "first (sheet 002)"),
      OptionSpec::Choice("marker_off", "own_train", {"own_train", "any_play"},
                         "a marker comes off when its owner plays on its own train, or when it "
                         "plays anywhere (sheet 002)"),
      OptionSpec::Bool("dead_doubles_free", false,
                       "a double whose suit is all on the table need not be closed (sheet 002)"),
      OptionSpec::Bool("first_turn_strings", false,
                       "first turn: a string on your own train only (sheet 004)"),
      OptionSpec::Bool("engine_from_hands", false,
                       "the whole set is dealt; the holder of the highest double not yet used as "
                       "an engine places it and plays again (sheet 002)"),
  });
  spec.presets = {
      Preset{"classic", "sheet 000 with double-12, 4 players", {{"set", int64_t{12}}}},
      Preset{"classic_double_9",
             "sheet 000 with double-9",
             {{"set", int64_t{9}}, {"players", int64_t{4}}}},
      Preset{"first_turn_strings",
             "sheet 004: double-12, its deal table, first-turn strings",
             {{"set", int64_t{12}},
              {"deal_table", std::string("sheet004")},
              {"first_turn_strings", true}}},
      Preset{"house",
             "sheet 002: the engine from the hands (skipped engines tracked), its deal table, "
             "chained doubles closed in order, dead doubles free, markers off on any play",
             {{"set", int64_t{12}},
              {"deal_table", std::string("sheet002")},
              {"engine_from_hands", true},
              {"double_chain", std::string("unlimited")},
              {"marker_off", std::string("any_play")},
              {"dead_doubles_free", true}}},
  };
  spec.factory = [](const Rules& rules) -> absl::StatusOr<std::shared_ptr<const Game>> {
    absl::StatusOr<trains::DealTable> table = TableOf(rules.GetString("deal_table"));
    if (!table.ok()) return table.status();
    absl::StatusOr<trains::RoundsSetup> setup =
        trains::ResolveSetup("mexican_train", rules, *table);
    if (!setup.ok()) return setup.status();
    return std::make_shared<MexicanTrainGame>(rules, setup->players, setup->max_pip,
                                              setup->hand_size, setup->rounds,
                                              rules.GetBool("engine_from_hands"));
  };
  return spec;
}

MexicanTrainGame::MexicanTrainGame(Rules rules, int players, int max_pip, int hand_size,
                                   int rounds, bool engine_from_hands)
    : RoundsGame("mexican_train", std::move(rules), players, max_pip, hand_size, rounds,
                 /*centre_out_of_deal=*/!engine_from_hands),
      double_chain_(this->rules().GetString("double_chain") == "unlimited" ? DoubleChain::kUnlimited
                                                                           : DoubleChain::kTwo),
      marker_off_(this->rules().GetString("marker_off") == "any_play" ? MarkerOff::kAnyPlay
                                                                      : MarkerOff::kOwnTrain),
      dead_doubles_free_(this->rules().GetBool("dead_doubles_free")),
      first_turn_strings_(this->rules().GetBool("first_turn_strings")),
      engine_from_hands_(engine_from_hands) {}

std::unique_ptr<State> MexicanTrainGame::MakeState(
    uint64_t seed, std::shared_ptr<const std::vector<Deal>> deals) const {
  return std::make_unique<MexicanTrainState>(shared_from_this(), seed, std::move(deals));
}

// ----- View -----

std::string TrainView::Name() const {
  return owner == kNobody ? std::string("mexican") : absl::StrCat("train ", owner);
}

std::vector<int> MexicanTrainView::EligibleFor(int seat) const {
  std::vector<int> out;
  for (int t = 0; t < static_cast<int>(trains.size()); ++t) {
    const TrainView& tr = trains[t];
    if (tr.owner == seat || tr.owner == kNobody || tr.marker) {
      out.push_back(tr.owner == kNobody ? kMexican : tr.owner);
    }
  }
  return out;
}

nlohmann::json MexicanTrainView::LayoutJson() const {
  nlohmann::json j;
  j["engine"] = absl::StrCat(engine, "-", engine);
  j["rounds"] = rounds;
  nlohmann::json ts = nlohmann::json::array();
  for (const TrainView& t : trains) {
    ts.push_back({{"name", t.Name()},
                  {"owner", t.owner == kNobody ? nlohmann::json(nullptr) : nlohmann::json(t.owner)},
                  {"tiles", t.tiles},
                  {"end_pip", t.end_pip},
                  {"marker", t.marker},
                  {"open_double", t.open_double}});
  }
  j["trains"] = ts;
  j["open_doubles"] = open_doubles;
  j["blocking"] = blocking.empty() ? nlohmann::json(nullptr) : nlohmann::json(blocking);
  j["turn"] = {{"doubles_played", doubles_this_turn},
               {"must_follow_double", must_follow_double},
               {"drew", drew_this_turn},
               {"first_turn_string", first_turn}};
  j["had_first_turn"] = had_first_turn;
  j["last_round"] = last_round.has_value() ? last_round->ToJson() : nlohmann::json(nullptr);
  return j;
}

std::string MexicanTrainView::LayoutText() const {
  std::string out = absl::StrCat("engine ", engine, "-", engine, " (", rounds, " rounds)");
  for (const TrainView& t : trains) {
    absl::StrAppend(&out, "\n", t.Name(), t.marker ? " [marker]" : "", ": ",
                    t.tiles.empty() ? std::string("-") : absl::StrJoin(t.tiles, " "),
                    "  (end ", t.end_pip, t.open_double ? ", open double" : "", ")");
  }
  if (!blocking.empty()) absl::StrAppend(&out, "\nopen double on ", blocking, ": play there");
  if (must_follow_double) absl::StrAppend(&out, "\na double was played: play again");
  if (first_turn) absl::StrAppend(&out, "\nfirst-turn string: go on or \"stop\"");
  if (last_round.has_value()) absl::StrAppend(&out, "\n", last_round->ToText());
  return out;
}

// ----- State -----

MexicanTrainState::MexicanTrainState(std::shared_ptr<const Game> game, uint64_t seed,
                                     std::shared_ptr<const std::vector<Deal>> deals)
    : RoundsState(std::move(game), seed, std::move(deals)),
      mg_(static_cast<const MexicanTrainGame*>(&this->game())) {
  StartRound(0);
}

void MexicanTrainState::StartRound(int round) {
  DealRound(round);
  placed_ = TileMask();
  if (mg_->engine_from_hands()) {
    ChooseEngineFromHands();
  } else {
    engine_ = static_cast<int8_t>(mg_->CentrePip(round));
  }
  placed_.Set(trains::DoubleId(engine_));
  end_pip_.fill(engine_);
  length_ = {};
  num_plays_ = 0;
  num_open_ = 0;
  num_turn_doubles_ = 0;
  markers_ = 0;
  first_done_ = 0;
  out_seat_ = kNobody;
  phase_ = Phase::kStart;
  drawn_ = -1;
}

void MexicanTrainState::ChooseEngineFromHands() {
  // Sheet 002: the highest double not yet used as an engine that someone holds (the skipped
  // ones stay unused, so the next round looks for them first).
  auto holder_of = [&](int pip) {
    for (int s = 0; s < players_; ++s) {
      if (deck_.hand(s).Test(trains::DoubleId(pip))) return s;
    }
    return static_cast<int>(kNobody);
  };
  int engine = -1;
  int holder = kNobody;
  for (int pip = mg_->max_pip(); pip >= 0 && engine < 0; --pip) {
    if ((used_engines_ >> pip) & 1) continue;
    if (const int s = holder_of(pip); s != kNobody) {
      engine = pip;
      holder = s;
    }
  }
  // Nobody holds one: everyone draws one tile, from the starter on, until an unused double
  // turns up (the highest of those drawn in one pass).
  for (int seat = current_; engine < 0 && !deck_.boneyard_empty();) {
    for (int k = 0; k < players_ && !deck_.boneyard_empty(); ++k, seat = NextSeat(seat)) {
      const int id = deck_.Draw(seat);
      if (trains::TileIsDouble(id) && !((used_engines_ >> trains::TileHi(id)) & 1) &&
          trains::TileHi(id) > engine) {
        engine = trains::TileHi(id);
        holder = seat;
      }
    }
  }
  if (engine < 0) {
    // Unreachable: an unused double is always in a hand or the boneyard.
    std::fputs("boneyard: mexican_train found no engine\n", stderr);
    std::abort();
  }
  engine_ = static_cast<int8_t>(engine);
  used_engines_ |= static_cast<uint16_t>(1u << engine);
  deck_.Take(holder, trains::DoubleId(engine));
  current_ = static_cast<int8_t>(holder);
}

uint16_t MexicanTrainState::Eligible(int seat) const {
  return static_cast<uint16_t>((1u << seat) | (1u << kMexican) | markers_);
}

bool MexicanTrainState::IsDead(int train) const {
  const int pip = end_pip_[train];
  bool dead = true;
  TilesWithPip(pip).ForEach([&](int id) {
    if (trains::TileHi(id) <= mg_->max_pip() && !placed_.Test(id)) dead = false;
  });
  return dead;
}

int MexicanTrainState::BlockingDouble() const {
  for (int i = 0; i < num_open_; ++i) {
    if (!mg_->dead_doubles_free() || !IsDead(open_[i])) return open_[i];
  }
  return -1;
}

bool MexicanTrainState::OpenContains(int train) const {
  for (int i = 0; i < num_open_; ++i) {
    if (open_[i] == train) return true;
  }
  return false;
}

uint16_t MexicanTrainState::StartTargets(int seat, Markers markers) const {
  if (OnFirstTurn(seat)) return static_cast<uint16_t>(1u << seat);
  if (const int d = BlockingDouble(); d >= 0) return static_cast<uint16_t>(1u << d);
  return markers == Markers::kAllUp ? static_cast<uint16_t>(((1u << players_) - 1) | (1u << kMexican))
                    : Eligible(seat);
}

uint16_t MexicanTrainState::Targets() const {
  switch (phase_) {
    case Phase::kStart: return StartTargets(current_);
    case Phase::kString: return static_cast<uint16_t>(1u << current_);
    case Phase::kFollow: break;
  }
  if (OnFirstTurn(current_)) return static_cast<uint16_t>(1u << current_);
  uint16_t targets = Eligible(current_);
  if (mg_->double_chain() == DoubleChain::kTwo) {
    if (num_turn_doubles_ >= 2) {
      targets = 0;
      for (int i = 0; i < num_turn_doubles_; ++i) {
        if (OpenContains(turn_doubles_[i])) targets |= static_cast<uint16_t>(1u << turn_doubles_[i]);
      }
    }
  } else {
    // The doubler may close only the first double of the turn.
    for (int i = 1; i < num_turn_doubles_; ++i) {
      if (OpenContains(turn_doubles_[i])) targets &= static_cast<uint16_t>(~(1u << turn_doubles_[i]));
    }
  }
  return targets;
}

bool MexicanTrainState::CanPlayOn(const TileMask& hand, uint16_t targets) const {
  for (uint32_t t = targets; t; t &= t - 1) {
    if (!(hand & TilesWithPip(end_pip_[std::countr_zero(t)])).Empty()) return true;
  }
  return false;
}

bool MexicanTrainState::PlayAllowed(int tile, int train) const {
  // Sheet 000: a second double only when a third tile from hand can then close one of them.
  if (phase_ != Phase::kFollow || !TileIsDouble(tile) ||
      mg_->double_chain() != DoubleChain::kTwo || num_turn_doubles_ != 1 || OnFirstTurn(current_)) {
    return true;
  }
  TileMask rest = deck_.hand(current_);
  rest.Reset(tile);
  const int first = turn_doubles_[0];
  if (!OpenContains(first)) {
    // The first double is already closed: this is an ordinary new double.
    return true;
  }
  (void)train;
  return !(rest & (TilesWithPip(end_pip_[first]) | TilesWithPip(trains::TileHi(tile)))).Empty();
}

void MexicanTrainState::LegalActions(ActionList& out) const {
  if (terminal_) return;
  TileMask hand = deck_.hand(current_);
  if (drew()) {
    // "Draw a tile and play it if you can": the drawn tile or nothing. Any other tile either
    // did not fit before the draw or (a second double) needs a third tile drawn for it.
    hand = TileMask();
    hand.Set(drawn_);
  }
  const uint16_t targets = Targets();
  bool any = false;
  hand.ForEach([&](int tile) {
    for (uint32_t t = targets; t; t &= t - 1) {
      const int train = std::countr_zero(t);
      if (TileHas(tile, end_pip_[train]) && PlayAllowed(tile, train)) {
        out.push_back(PlayAction(tile, train));
        any = true;
      }
    }
  });
  if (phase_ == Phase::kString) {
    out.push_back(kStop);
    return;
  }
  if (any) return;
  out.push_back(!drew() && !deck_.boneyard_empty() ? kDraw : kPass);
}

void MexicanTrainState::Apply(Action action) {
  if (action == kDraw) {
    drawn_ = static_cast<int8_t>(deck_.Draw(current_));
    return;
  }
  if (action == kPass) {
    markers_ |= static_cast<uint16_t>(1u << current_);
    EndTurn();
    return;
  }
  if (action == kStop) {
    EndTurn();
    return;
  }
  ApplyPlay(ActionTile(action), ActionTrain(action));
}

void MexicanTrainState::ApplyPlay(int tile, int train) {
  const int seat = current_;
  deck_.Take(seat, tile);
  placed_.Set(tile);
  plays_[num_plays_++] = {static_cast<uint8_t>(tile), static_cast<uint8_t>(train)};
  drawn_ = -1;  // the drawn tile, if any, is played: a first-turn string goes on from the hand
  end_pip_[train] = static_cast<int8_t>(TileOther(tile, end_pip_[train]));
  ++length_[train];
  // Closing an open double.
  for (int i = 0; i < num_open_; ++i) {
    if (open_[i] == train) {
      for (int k = i + 1; k < num_open_; ++k) open_[k - 1] = open_[k];
      --num_open_;
      break;
    }
  }
  const bool is_double = TileIsDouble(tile);
  if (is_double) {
    open_[num_open_++] = static_cast<int8_t>(train);
    turn_doubles_[num_turn_doubles_++] = static_cast<int8_t>(train);
  }
  if (mg_->marker_off() == MarkerOff::kAnyPlay || train == seat) {
    markers_ &= static_cast<uint16_t>(~(1u << seat));
  }
  if (deck_.hand_count(seat) == 0) {
    if (mg_->first_turn_strings() && first_done_ != (1u << players_) - 1) {
      // Sheet 004: the others still get their first turn before the round ends.
      first_done_ |= static_cast<uint16_t>(1u << seat);
      if (out_seat_ == kNobody) out_seat_ = static_cast<int8_t>(seat);
      EndTurn();
      return;
    }
    if (out_seat_ == kNobody) out_seat_ = static_cast<int8_t>(seat);
    EndRound(trains::RoundEnd::kDomino);
    return;
  }
  if (is_double) {
    phase_ = Phase::kFollow;
    return;
  }
  if (phase_ == Phase::kFollow && mg_->double_chain() == DoubleChain::kTwo &&
      num_turn_doubles_ >= 2) {
    EndTurn();
    return;
  }
  if (OnFirstTurn(seat)) {
    phase_ = Phase::kString;
    return;
  }
  EndTurn();
}

void MexicanTrainState::EndTurn() {
  const int seat = current_;
  first_done_ |= static_cast<uint16_t>(1u << seat);
  phase_ = Phase::kStart;
  drawn_ = -1;
  num_turn_doubles_ = 0;
  if (out_seat_ != kNobody) {
    // A seat went out during the first turns: only the remaining first turns are played.
    int next = NextSeat(seat);
    for (int k = 0; k < players_ && ((first_done_ >> next) & 1); ++k) next = NextSeat(next);
    if ((first_done_ >> next) & 1) {
      EndRound(trains::RoundEnd::kDomino);
    } else {
      current_ = static_cast<int8_t>(next);
    }
    return;
  }
  current_ = static_cast<int8_t>(NextSeat(seat));
  if (deck_.boneyard_empty()) {
    // Blocked: nobody could play even once every seat unable to play has put its marker up.
    for (int s = 0; s < players_; ++s) {
      if (CanPlayOn(deck_.hand(s), StartTargets(s, Markers::kAllUp))) return;
    }
    EndRound(trains::RoundEnd::kBlocked);
  }
}

void MexicanTrainState::EndRound(trains::RoundEnd why) {
  if (ScoreRound(why, out_seat_, /*double_blank_penalty=*/0)) StartRound(round_ + 1);
}

std::unique_ptr<State> MexicanTrainState::Clone() const {
  return std::make_unique<MexicanTrainState>(*this);
}

std::unique_ptr<State> MexicanTrainState::Determinize(int seat, Rng& rng) const {
  std::unique_ptr<State> copy = RoundsState::Determinize(seat, rng);
  auto& world = static_cast<MexicanTrainState&>(*copy);
  // The tile the seat to play has just drawn is hidden from the others, and was redealt with
  // the rest: in the new world it is one of that seat's new tiles.
  if (drew() && !terminal_ && current_ != seat && !world.deck_.hand(current_).Test(drawn_)) {
    std::array<int8_t, kMaxTiles> tiles{};
    int n = 0;
    world.deck_.hand(current_).ForEach([&](int id) { tiles[n++] = static_cast<int8_t>(id); });
    world.drawn_ = tiles[rng.Below(static_cast<uint32_t>(n))];
  }
  return copy;
}

void MexicanTrainState::BuildTrains(MexicanTrainView& view) const {
  std::array<int, kNumTrains> index{};
  for (int s = 0; s < players_; ++s) {
    index[s] = s;
    view.trains.push_back(TrainView{s, {}, engine_, HasMarker(s), false});
  }
  index[kMexican] = players_;
  view.trains.push_back(TrainView{kNobody, {}, engine_, false, false});
  std::array<int, kNumTrains> pip{};
  pip.fill(engine_);
  for (int i = 0; i < num_plays_; ++i) {
    const int tile = plays_[i][0];
    const int train = plays_[i][1];
    view.trains[index[train]].tiles.push_back(trains::PlacedName(tile, pip[train]));
    pip[train] = TileOther(tile, pip[train]);
  }
  for (int train = 0; train < kNumTrains; ++train) {
    if (train >= players_ && train != kMexican) continue;
    view.trains[index[train]].end_pip = end_pip_[train];
    view.trains[index[train]].open_double = OpenContains(train);
  }
  for (int i = 0; i < num_open_; ++i) view.open_doubles.push_back(TrainName(open_[i]));
}

std::unique_ptr<View> MexicanTrainState::ViewFor(int seat) const {
  auto view = std::make_unique<MexicanTrainView>();
  FillView(*view, seat);
  view->engine = engine_;
  view->rounds = mg_->rounds();
  BuildTrains(*view);
  if (!terminal_) {
    if (const int d = BlockingDouble(); d >= 0 && phase_ == Phase::kStart && !OnFirstTurn(current_)) {
      view->blocking = TrainName(d);
    }
    view->doubles_this_turn = num_turn_doubles_;
    view->must_follow_double = phase_ == Phase::kFollow;
    view->drew_this_turn = drew();
    view->first_turn = phase_ == Phase::kString;
  }
  if (mg_->first_turn_strings()) {
    for (int s = 0; s < players_; ++s) view->had_first_turn.push_back((first_done_ >> s) & 1);
  }
  view->last_round = last_.ToResult(players_);
  return view;
}

// ----- Notation -----

std::string MexicanTrainState::ActionToString(Action action) const {
  if (action == kDraw) return "draw";
  if (action == kPass) return "pass";
  if (action == kStop) return "stop";
  if (!IsPlay(action)) return absl::StrCat("?", action);
  return absl::StrCat(TileName(ActionTile(action)), " ", TrainName(ActionTrain(action)));
}

absl::StatusOr<Action> MexicanTrainState::ParseAction(absl::string_view text) const {
  const std::vector<std::string> words = trains::Words(text);
  auto malformed = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "' is not a mexican_train action", why,
        " (write \"5-3 train 2\" to play on seat 2's train, \"5-3 mexican\" for the Mexican "
        "train, or \"draw\", \"pass\", \"stop\")"));
  };
  if (words.size() == 1) {
    if (words[0] == "draw") return kDraw;
    if (words[0] == "pass") return kPass;
    if (words[0] == "stop") return kStop;
  }
  if (words.size() < 2) return malformed("");
  absl::StatusOr<int> tile = ParseTileId(words[0]);
  if (!tile.ok()) return malformed(absl::StrCat(": ", tile.status().message()));
  int train = -1;
  if (words[1] == "mexican" && words.size() == 2) {
    train = kMexican;
  } else if (words[1] == "train" && words.size() == 3) {
    int seat = 0;
    if (!absl::SimpleAtoi(words[2], &seat) || seat < 0 || seat >= players_) {
      return malformed(absl::StrCat(": trains are numbered by seat, 0 to ", players_ - 1));
    }
    train = seat;
  } else {
    return malformed("");
  }
  return PlayAction(*tile, train);
}

absl::Status MexicanTrainState::ExplainIllegal(Action action) const {
  if (IsLegal(action)) return absl::OkStatus();
  if (terminal_) return absl::FailedPreconditionError("the match is over");
  auto fail = [](auto... parts) { return absl::FailedPreconditionError(absl::StrCat(parts...)); };
  ActionList legal;
  LegalActions(legal);
  const bool can_play = !legal.empty() && IsPlay(legal[0]);
  if (action == kDraw || action == kPass) {
    return ExplainDrawOrPass(action == kDraw, can_play ? ActionToString(legal[0]) : "", drew());
  }
  if (action == kStop) return fail("\"stop\" only ends a first-turn string (first_turn_strings)");
  const int tile = ActionTile(action);
  const int train = ActionTrain(action);
  if (!deck_.hand(current_).Test(tile)) return fail(TileName(tile), " is not in your hand");
  if (train != kMexican && train >= players_) return fail("there is no ", TrainName(train));
  if (drew() && tile != drawn_) {
    return fail("after drawing, only the drawn tile (", TileName(drawn_),
                ") may be played, if it fits; otherwise \"pass\"");
  }
  const uint16_t targets = Targets();
  if (!((targets >> train) & 1)) {
    if (OnFirstTurn(current_)) {
      return fail("first turn (sheet 004): play only on your own train, \"train ", current_, "\"");
    }
    if (phase_ == Phase::kStart && BlockingDouble() >= 0) {
      return fail("the open double on ", TrainName(BlockingDouble()),
                  " must be closed before any other train is played on");
    }
    if (phase_ == Phase::kFollow) {
      return fail("after two doubles the third tile must go on one of them (or, chained, you "
                  "may close only your first double)");
    }
    return fail(TrainName(train), " is not yours and carries no marker: play on your own "
                "train, the Mexican train or a marked train");
  }
  if (!TileHas(tile, end_pip_[train])) {
    return fail(TileName(tile), " does not match the end of ", TrainName(train), " (",
                end_pip_[train], ")");
  }
  if (!PlayAllowed(tile, train)) {
    return fail("a second double may be played only when a third tile from your hand can then "
                "go on one of the two doubles");
  }
  return State::ExplainIllegal(action);
}

// ----- Checks and text -----

absl::Status MexicanTrainState::CheckInvariants() const {
  TileMask played;
  for (int i = 0; i < num_plays_; ++i) played.Set(plays_[i][0]);
  TileMask with_engine = played;
  with_engine.Set(trains::DoubleId(engine_));
  if (absl::Status s = mg_->engine_from_hands() ? CheckTiles(with_engine, num_plays_ + 1)
                                                : CheckTiles(played, num_plays_);
      !s.ok()) {
    return s;
  }
  if (!(with_engine == placed_)) return absl::InternalError("placed tiles disagree with the plays");
  std::array<int, kNumTrains> pip{};
  pip.fill(engine_);
  for (int i = 0; i < num_plays_; ++i) {
    const int tile = plays_[i][0];
    const int train = plays_[i][1];
    if (!TileHas(tile, pip[train])) {
      return absl::InternalError(absl::StrCat("play ", i + 1, " is not consistent"));
    }
    pip[train] = TileOther(tile, pip[train]);
  }
  for (int t = 0; t < kNumTrains; ++t) {
    if (pip[t] != end_pip_[t]) return absl::InternalError("a train's end disagrees with its plays");
  }
  for (int i = 0; i < num_open_; ++i) {
    bool ends_in_double = false;
    for (int k = num_plays_ - 1; k >= 0; --k) {
      if (plays_[k][1] == open_[i]) {
        ends_in_double = TileIsDouble(plays_[k][0]);
        break;
      }
    }
    if (!ends_in_double) return absl::InternalError("an open double is not at a train's end");
  }
  return absl::OkStatus();
}

std::string MexicanTrainState::ToString() const {
  std::string out = absl::StrCat(BaseString(), " | engine ", engine_, " used ", used_engines_,
                                 " phase ", static_cast<int>(phase_),
                                 drew() ? absl::StrCat(" drew ", TileName(drawn_)) : "",
                                 " | plays:");
  for (int i = 0; i < num_plays_; ++i) {
    absl::StrAppend(&out, " ", ActionToString(PlayAction(plays_[i][0], plays_[i][1])), ";");
  }
  absl::StrAppend(&out, " | markers ", markers_, " first ", first_done_, " out ", out_seat_,
                  " | open");
  for (int i = 0; i < num_open_; ++i) absl::StrAppend(&out, " ", open_[i]);
  absl::StrAppend(&out, " | turn doubles");
  for (int i = 0; i < num_turn_doubles_; ++i) absl::StrAppend(&out, " ", turn_doubles_[i]);
  return out;
}

}  // namespace boneyard::mexican_train
