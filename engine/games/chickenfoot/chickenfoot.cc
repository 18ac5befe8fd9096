#include "engine/games/chickenfoot/chickenfoot.h"

#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/strip.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace boneyard::chickenfoot {
namespace {

using trains::TileHas;
using trains::TileIsDouble;
using trains::TileName;
using trains::TileOther;
using trains::TilesWithPip;

}  // namespace

// ----- Game -----

GameSpec Spec() {
  GameSpec spec;
  spec.name = "chickenfoot";
  spec.title = "Chickenfoot";
  spec.summary =
      "Six toes on the centre double, three on every later double, then play on any toe; "
      "lowest total after one round per double wins (the double-blank costs 50).";
  spec.min_seats = 2;
  spec.max_seats = kMaxSeats;
  spec.default_bot = "greedy";
  spec.options = trains::SharedOptions(9, 9, "double-9 (2..8 players) or double-12 (4..8)");
  spec.options.push_back(
      OptionSpec::Int("double_blank_penalty", 50, 0, 100,
                      "points added for holding the double-blank at the end of a round"));
  spec.presets = {
      Preset{"double_9", "double-9 set, ten rounds", {{"set", int64_t{9}}}},
      Preset{"double_12", "double-12 set, thirteen rounds", {{"set", int64_t{12}}}},
  };
  spec.factory = [](const Rules& rules) -> absl::StatusOr<std::shared_ptr<const Game>> {
    const int set = static_cast<int>(rules.GetInt("set"));
    if (set != 9 && set != 12) {
      return absl::InvalidArgumentError(
          absl::StrCat("rule option 'set' must be 9 or 12 (the sheets' sets), got ", set));
    }
    absl::StatusOr<trains::RoundsSetup> setup =
        trains::ResolveSetup("chickenfoot", rules, trains::DealTable::kSheet003);
    if (!setup.ok()) return setup.status();
    return std::make_shared<ChickenfootGame>(rules, setup->players, setup->max_pip,
                                             setup->hand_size, setup->rounds);
  };
  return spec;
}

ChickenfootGame::ChickenfootGame(Rules rules, int players, int max_pip, int hand_size, int rounds)
    : RoundsGame("chickenfoot", std::move(rules), players, max_pip, hand_size, rounds,
                 /*centre_out_of_deal=*/true),
      double_blank_penalty_(static_cast<int>(this->rules().GetInt("double_blank_penalty"))) {}

std::unique_ptr<State> ChickenfootGame::MakeState(
    uint64_t seed, std::shared_ptr<const std::vector<Deal>> deals) const {
  return std::make_unique<ChickenfootState>(shared_from_this(), seed, std::move(deals));
}

// ----- View -----

std::vector<int> ChickenfootView::OpenEnds() const {
  std::vector<int> out;
  if (foot >= 0) return {foot};
  for (const NodeView& n : nodes) {
    if (n.free > 0) out.push_back(n.id);
  }
  return out;
}

nlohmann::json ChickenfootView::LayoutJson() const {
  nlohmann::json j;
  j["centre"] = absl::StrCat(centre, "-", centre);
  j["rounds"] = rounds;
  // One string per placed tile ("@5 9-3 on @0"; the centre "@0 9-9"): compact, since a
  // round places up to ninety tiles.
  nlohmann::json ns = nlohmann::json::array();
  for (const NodeView& n : nodes) {
    ns.push_back(n.on < 0 ? absl::StrCat("@", n.id, " ", n.tile)
                          : absl::StrCat("@", n.id, " ", n.tile, " on @", n.on));
  }
  j["tiles"] = ns;
  nlohmann::json open = nlohmann::json::array();
  for (int id : OpenEnds()) {
    open.push_back({{"id", absl::StrCat("@", id)}, {"pip", nodes[id].pip}});
  }
  j["open_ends"] = open;
  j["foot"] = foot < 0 ? nlohmann::json(nullptr)
                       : nlohmann::json{{"id", absl::StrCat("@", foot)}, {"toes_needed", toes_needed}};
  j["double_blank_penalty"] = double_blank_penalty;
  j["last_round"] = last_round.has_value() ? last_round->ToJson() : nlohmann::json(nullptr);
  return j;
}

std::string ChickenfootView::LayoutText() const {
  std::string out = absl::StrCat("centre ", centre, "-", centre, " (", rounds, " rounds)");
  for (const NodeView& n : nodes) {
    if (n.on < 0) continue;
    absl::StrAppend(&out, "\n@", n.id, " ", n.tile, " on @", n.on,
                    n.free > 0 ? absl::StrCat("  open: ", n.pip) : std::string());
  }
  if (foot >= 0) {
    absl::StrAppend(&out, "\nthe double @", foot, " needs ", toes_needed, " more toe(s) first");
  }
  if (last_round.has_value()) absl::StrAppend(&out, "\n", last_round->ToText());
  return out;
}

// ----- State -----

ChickenfootState::ChickenfootState(std::shared_ptr<const Game> game, uint64_t seed,
                                   std::shared_ptr<const std::vector<Deal>> deals)
    : RoundsState(std::move(game), seed, std::move(deals)),
      cg_(static_cast<const ChickenfootGame*>(&this->game())) {
  StartRound(0);
}

void ChickenfootState::StartRound(int round) {
  DealRound(round);
  const int centre = cg_->CentrePip(round);
  num_nodes_ = 1;
  tile_[kCentre] = static_cast<uint8_t>(trains::DoubleId(centre));
  parent_[kCentre] = -1;
  pip_[kCentre] = static_cast<int8_t>(centre);
  capacity_[kCentre] = kCentreToes;
  children_[kCentre] = 0;
  placed_ = TileMask();
  foot_ = kCentre;
  drew_ = false;
}

template <typename F>
void ChickenfootState::ForEachOpenEnd(F&& f) const {
  if (foot_ >= 0) {
    f(foot_);
    return;
  }
  for (int n = 0; n < num_nodes_; ++n) {
    if (Free(n) > 0) f(n);
  }
}

bool ChickenfootState::CanPlay(const TileMask& hand) const {
  bool can = false;
  ForEachOpenEnd([&](int n) { can = can || !(hand & TilesWithPip(pip_[n])).Empty(); });
  return can;
}

void ChickenfootState::LegalActions(ActionList& out) const {
  if (terminal_) return;
  // The open ends once, then each playable tile against them (not every node for every
  // tile): the same tile-major order, a fraction of the work on a grown layout.
  std::array<int8_t, kMaxTiles> ends;
  int num_ends = 0;
  TileMask fits;
  ForEachOpenEnd([&](int n) {
    ends[num_ends++] = static_cast<int8_t>(n);
    fits |= TilesWithPip(pip_[n]);
  });
  const TileMask playable = fits & deck_.hand(current_);
  playable.ForEach([&](int tile) {
    for (int i = 0; i < num_ends; ++i) {
      if (TileHas(tile, pip_[ends[i]])) out.push_back(PlayAction(tile, ends[i]));
    }
  });
  if (playable.Empty()) out.push_back(!drew_ && !deck_.boneyard_empty() ? kDraw : kPass);
}

void ChickenfootState::Apply(Action action) {
  if (action == kDraw) {
    deck_.Draw(current_);
    drew_ = true;
    return;
  }
  if (action == kPass) {
    EndTurn();
    return;
  }
  const int tile = ActionTile(action);
  const int on = ActionNode(action);
  deck_.Take(current_, tile);
  placed_.Set(tile);
  const int n = num_nodes_++;
  tile_[n] = static_cast<uint8_t>(tile);
  parent_[n] = static_cast<int8_t>(on);
  pip_[n] = static_cast<int8_t>(TileOther(tile, pip_[on]));
  children_[n] = 0;
  ++children_[on];
  if (on == foot_ && Free(on) == 0) foot_ = -1;
  if (TileIsDouble(tile)) {
    capacity_[n] = kFootToes;
    foot_ = static_cast<int16_t>(n);
  } else {
    capacity_[n] = 1;
  }
  if (deck_.hand_count(current_) == 0) {
    if (ScoreRound(trains::RoundEnd::kDomino, current_, cg_->double_blank_penalty())) {
      StartRound(round_ + 1);
    }
    return;
  }
  EndTurn();
}

void ChickenfootState::EndTurn() {
  drew_ = false;
  current_ = static_cast<int8_t>(NextSeat(current_));
  if (!deck_.boneyard_empty()) return;
  for (int s = 0; s < players_; ++s) {
    if (CanPlay(deck_.hand(s))) return;
  }
  if (ScoreRound(trains::RoundEnd::kBlocked, kNobody, cg_->double_blank_penalty())) {
    StartRound(round_ + 1);
  }
}

std::unique_ptr<State> ChickenfootState::Clone() const {
  return std::make_unique<ChickenfootState>(*this);
}

std::unique_ptr<View> ChickenfootState::ViewFor(int seat) const {
  auto view = std::make_unique<ChickenfootView>();
  FillView(*view, seat);
  view->centre = pip_[kCentre];
  view->rounds = cg_->rounds();
  view->double_blank_penalty = cg_->double_blank_penalty();
  for (int n = 0; n < num_nodes_; ++n) {
    NodeView node;
    node.id = n;
    node.on = parent_[n];
    node.tile = n == kCentre ? TileName(tile_[n]) : trains::PlacedName(tile_[n], pip_[parent_[n]]);
    node.pip = pip_[n];
    node.free = Free(n);
    view->nodes.push_back(std::move(node));
  }
  view->foot = foot_;
  view->toes_needed = foot_ >= 0 ? Free(foot_) : 0;
  view->last_round = last_.ToResult(players_);
  return view;
}

// ----- Notation -----

std::string ChickenfootState::ActionToString(Action action) const {
  if (action == kDraw) return "draw";
  if (action == kPass) return "pass";
  if (!IsPlay(action)) return absl::StrCat("?", action);
  return absl::StrCat(TileName(ActionTile(action)), " @", ActionNode(action));
}

absl::StatusOr<Action> ChickenfootState::ParseAction(absl::string_view text) const {
  const std::vector<std::string> words = trains::Words(text);
  auto malformed = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "' is not a chickenfoot action", why,
        " (write \"5-3 @7\" to play 5-3 on the tile with id @7, @0 being the centre double; "
        "or \"draw\", \"pass\")"));
  };
  if (words.size() == 1 && words[0] == "draw") return kDraw;
  if (words.size() == 1 && words[0] == "pass") return kPass;
  if (words.size() != 2) return malformed("");
  absl::StatusOr<int> tile = ParseTileId(words[0]);
  if (!tile.ok()) return malformed(absl::StrCat(": ", tile.status().message()));
  int node = 0;
  absl::string_view end = words[1];
  if (!absl::ConsumePrefix(&end, "@") || !absl::SimpleAtoi(end, &node) || node < 0 ||
      node >= kMaxTiles) {
    return malformed(": the end is a tile id such as @7");
  }
  return PlayAction(*tile, node);
}

absl::Status ChickenfootState::ExplainIllegal(Action action) const {
  if (IsLegal(action)) return absl::OkStatus();
  if (terminal_) return absl::FailedPreconditionError("the match is over");
  auto fail = [](auto... parts) { return absl::FailedPreconditionError(absl::StrCat(parts...)); };
  ActionList legal;
  LegalActions(legal);
  if (action == kDraw || action == kPass) {
    return ExplainDrawOrPass(action == kDraw, IsPlay(legal[0]) ? ActionToString(legal[0]) : "",
                             drew_);
  }
  const int tile = ActionTile(action);
  const int node = ActionNode(action);
  if (!deck_.hand(current_).Test(tile)) return fail(TileName(tile), " is not in your hand");
  if (node >= num_nodes_) return fail("there is no tile @", node, " on the table");
  if (foot_ >= 0 && node != foot_) {
    return fail("the double @", foot_, " needs ", Free(foot_), " more toe(s) before any other "
                "play (", foot_ == kCentre ? "six on the centre double" : "three on a double",
                ")");
  }
  if (Free(node) == 0) return fail("@", node, " is closed: nothing more goes on it");
  if (!TileHas(tile, pip_[node])) {
    return fail(TileName(tile), " does not match @", node, " (", static_cast<int>(pip_[node]), ")");
  }
  return State::ExplainIllegal(action);
}

// ----- Checks and text -----

absl::Status ChickenfootState::CheckInvariants() const {
  if (absl::Status s = CheckTiles(placed_, num_nodes_ - 1); !s.ok()) return s;
  if (tile_[kCentre] != trains::DoubleId(cg_->CentrePip(round_))) {
    return absl::InternalError("the centre is not the round's double");
  }
  std::array<int, kMaxTiles> children{};
  TileMask seen;
  int foot = kCentre;
  for (int n = 1; n < num_nodes_; ++n) {
    const int on = parent_[n];
    if (on < 0 || on >= n || seen.Test(tile_[n]) || !TileHas(tile_[n], pip_[on]) ||
        pip_[n] != TileOther(tile_[n], pip_[on])) {
      return absl::InternalError(absl::StrCat("tile @", n, " is not consistent"));
    }
    if (foot >= 0 && on != foot) return absl::InternalError("a foot was skipped");
    seen.Set(tile_[n]);
    ++children[on];
    if (children[on] > capacity_[on]) return absl::InternalError("too many toes");
    if (on == foot && children[on] == capacity_[on]) foot = -1;
    if (TileIsDouble(tile_[n])) foot = n;
  }
  if (!(seen == placed_) || foot != foot_) return absl::InternalError("the feet disagree");
  for (int n = 0; n < num_nodes_; ++n) {
    if (children[n] != children_[n]) return absl::InternalError("toe counts disagree");
  }
  return absl::OkStatus();
}

std::string ChickenfootState::ToString() const {
  std::string out = absl::StrCat(BaseString(), drew_ ? " drew" : "", " | foot ", foot_,
                                 " | tiles:");
  for (int n = 0; n < num_nodes_; ++n) {
    absl::StrAppend(&out, " @", n, "=", TileName(tile_[n]), "/", parent_[n]);
  }
  return out;
}

}  // namespace boneyard::chickenfoot
