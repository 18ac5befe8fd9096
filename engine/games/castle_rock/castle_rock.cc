#include "engine/games/castle_rock/castle_rock.h"

#include <algorithm>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace boneyard::castle_rock {

GameSpec Spec() {
  GameSpec spec;
  spec.name = "castle_rock";
  spec.title = "Castle Rock (solitaire)";
  spec.summary = "Remove tiles from a row whose neighbours match; win with two or fewer left.";
  spec.min_seats = 1;
  spec.max_seats = 1;
  spec.default_bot = "greedy";
  spec.options = {
      OptionSpec::Int("players", 1, 1, 1, "solitaire: one player"),
      OptionSpec::Int("set", 6, 6, kMaxPip, "highest pip of the double-N set"),
  };
  for (int n : {6, 9, 12, 15, 18}) {
    spec.presets.push_back(Preset{absl::StrCat("double-", n),
                                  absl::StrCat("a double-", n, " set (", DistinctTiles(n), " tiles)"),
                                  {{"set", int64_t{n}}}});
  }
  spec.factory = [](const Rules& rules) -> absl::StatusOr<std::shared_ptr<const Game>> {
    absl::StatusOr<TileSet> set = TileSet::DoubleN(static_cast<int>(rules.GetInt("set")));
    if (!set.ok()) return set.status();
    return std::make_shared<CastleRockGame>(rules, *set);
  };
  return spec;
}

CastleRockGame::CastleRockGame(Rules rules, TileSet set)
    : Game("castle_rock", std::move(rules), 1, {}, set, ScoreOrder::kLowerWins) {
  for (int id = 0; id < set.size(); ++id) {
    const Tile t = set.TileAt(id);
    pip_mask_[id] = (1u << t.hi) | (1u << t.lo);
  }
}

absl::Status CastleRockGame::ValidateDeal(int round, const Deal& deal) const {
  if (round != 0) {
    return absl::InvalidArgumentError("castle_rock is played in one round; the record has more");
  }
  return CheckDealTiles(round, deal, tile_set().AllTiles(), {0});
}

std::unique_ptr<State> CastleRockGame::MakeState(
    uint64_t seed, std::shared_ptr<const std::vector<Deal>> deals) const {
  return std::make_unique<CastleRockState>(shared_from_this(), seed, std::move(deals));
}

// ----- View -----

nlohmann::json CastleRockView::LayoutJson() const {
  nlohmann::json row_json = nlohmann::json::array();
  for (const Tile& t : row) row_json.push_back(t.ToString());
  return {{"row", row_json}};
}

std::string CastleRockView::LayoutText() const {
  std::string out = "row:";
  for (size_t i = 0; i < row.size(); ++i) absl::StrAppend(&out, "  ", i + 1, ":", row[i].ToString());
  return out;
}

// ----- State -----

CastleRockState::CastleRockState(std::shared_ptr<const Game> game, uint64_t seed,
                                 std::shared_ptr<const std::vector<Deal>> deals)
    : State(std::move(game)), crg_(static_cast<const CastleRockGame*>(&this->game())) {
  const TileSet& set = crg_->tile_set();
  pile_size_ = set.size();
  if (!deals->empty()) {
    const Deal& deal = deals->front();
    for (int i = 0; i < pile_size_; ++i) pile_[i] = set.IdOf(deal.boneyard[i]);
  } else {
    for (int i = 0; i < pile_size_; ++i) pile_[i] = static_cast<uint8_t>(i);
    Rng rng(DeriveSeed(seed, 0));
    rng.Shuffle(pile_.data(), pile_size_);
  }
  Settle();
}

void CastleRockState::DrawOne() { row_[row_len_++] = pile_[next_++]; }

// Removals only ever involve the last three tiles of the row. A draw happens only when no
// removal exists, and can create one only with the new tile; removing tile n-2 joins n-3 to
// n-1, creating candidates only among the new last three; removing the last three creates no
// new neighbours. So the last three tiles are all that need looking at (CheckInvariants
// verifies this against a scan of the whole row).
bool CastleRockState::HasRemoval() const {
  return row_len_ >= 3 && Matches(row_[row_len_ - 3], row_[row_len_ - 1]);
}

bool CastleRockState::HasRemovalAnywhere() const {
  for (int i = 0; i + 2 < row_len_; ++i) {
    if (Matches(row_[i], row_[i + 2])) return true;  // covers option 2 too: it needs a match
  }
  return false;
}

void CastleRockState::Settle() {
  if (row_len_ == 0) {
    for (int k = 0; k < 3 && next_ < pile_size_; ++k) DrawOne();
  }
  terminal_ = next_ == pile_size_ && !HasRemoval();
}

void CastleRockState::LegalActions(ActionList& out) const {
  if (terminal_) return;
  if (HasRemoval()) {
    const int last = row_len_ - 1;
    out.push_back(static_cast<Action>(last - 1));  // option 1: the middle of the last three
    if (AllShare(row_[last - 2], row_[last - 1], row_[last])) {
      out.push_back(kTripleBase + static_cast<Action>(last - 2));  // option 2
    }
  } else if (next_ < pile_size_) {
    out.push_back(kDraw);
  }
}

void CastleRockState::Apply(Action action) {
  if (action == kDraw) {
    DrawOne();
  } else if (action >= kTripleBase) {
    const int i = static_cast<int>(action - kTripleBase);
    std::copy(row_.begin() + i + 3, row_.begin() + row_len_, row_.begin() + i);
    row_len_ -= 3;
  } else {
    const int i = static_cast<int>(action);
    std::copy(row_.begin() + i + 1, row_.begin() + row_len_, row_.begin() + i);
    row_len_ -= 1;
  }
  Settle();
}

std::vector<int> CastleRockState::Scores() const { return {row_len_ + pile_left()}; }

int CastleRockState::PipsLeft() const {
  int pips = 0;
  const TileSet& set = crg_->tile_set();
  for (int i = 0; i < row_len_; ++i) pips += set.TileAt(row_[i]).Pips();
  for (int i = next_; i < pile_size_; ++i) pips += set.TileAt(pile_[i]).Pips();
  return pips;
}

nlohmann::json CastleRockState::ResultDetails() const {
  const int tiles = row_len_ + pile_left();
  return {{"tiles_left", tiles}, {"pips_left", PipsLeft()}, {"won", terminal_ && tiles <= 2}};
}

Deal CastleRockState::CurrentDeal() const {
  Deal deal;
  deal.hands.resize(1);
  const TileSet& set = crg_->tile_set();
  for (int i = 0; i < pile_size_; ++i) deal.boneyard.push_back(set.TileAt(pile_[i]));
  return deal;
}

std::unique_ptr<State> CastleRockState::Clone() const {
  return std::unique_ptr<State>(new CastleRockState(*this));
}

std::unique_ptr<View> CastleRockState::ViewFor(int seat) const {
  auto view = std::make_unique<CastleRockView>();
  view->game = game().name();
  view->seat = seat;
  view->current_seat = CurrentSeat();
  view->round = 0;
  view->terminal = terminal_;
  view->hand_counts = {0};
  view->boneyard_count = pile_left();
  view->scores = Scores();
  const TileSet& set = crg_->tile_set();
  for (int i = 0; i < row_len_; ++i) view->row.push_back(set.TileAt(row_[i]));
  if (seat == CurrentSeat()) view->legal_actions = LegalActionStrings();
  return view;
}

std::unique_ptr<State> CastleRockState::Determinize(int seat, Rng& rng) const {
  auto copy = std::unique_ptr<CastleRockState>(new CastleRockState(*this));
  rng.Shuffle(copy->pile_.data() + next_, pile_size_ - next_);
  return copy;
}

TileMask CastleRockState::HiddenFrom(int seat) const {
  TileMask hidden;
  for (int i = next_; i < pile_size_; ++i) hidden.Set(pile_[i]);
  return hidden;
}

std::string CastleRockState::ActionToString(Action action) const {
  if (action == kDraw) return "draw";
  if (action >= kTripleBase) {
    const int i = static_cast<int>(action - kTripleBase) + 1;
    return absl::StrCat("take ", i, "-", i + 2);
  }
  return absl::StrCat("take ", action + 1);
}

absl::StatusOr<Action> CastleRockState::ParseAction(absl::string_view text) const {
  const std::string t = absl::AsciiStrToLower(absl::StripAsciiWhitespace(text));
  if (t == "draw") return kDraw;
  // Words are separated by any run of whitespace (tabs too), as in the other games.
  const std::vector<absl::string_view> words =
      absl::StrSplit(t, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
  auto malformed = [&] {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "' is not a castle_rock action (\"take <i>\", \"take <i>-<i+2>\" or \"draw\")"));
  };
  if (words.size() != 2 || words[0] != "take") return malformed();
  const std::vector<absl::string_view> range = absl::StrSplit(words[1], '-');
  int first = 0;
  if (range.empty() || range.size() > 2 || !absl::SimpleAtoi(range[0], &first) || first < 1 ||
      first > kMaxTileIds) {
    return malformed();
  }
  if (range.size() == 1) return static_cast<Action>(first - 1);
  int last = 0;
  if (!absl::SimpleAtoi(range[1], &last)) return malformed();
  if (last != first + 2) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "': a three-tile removal names three adjacent positions, like \"take ", first,
        "-", first + 2, "\""));
  }
  return kTripleBase + static_cast<Action>(first - 1);
}

absl::Status CastleRockState::ExplainIllegal(Action action) const {
  if (IsLegal(action)) return absl::OkStatus();
  const TileSet& set = crg_->tile_set();
  auto tile = [&](int i) { return set.TileAt(row_[i]).ToString(); };
  if (terminal_) return absl::FailedPreconditionError("the game is over");
  if (action == kDraw) {
    if (next_ == pile_size_) return absl::FailedPreconditionError("the bone pile is empty");
    ActionList legal;
    LegalActions(legal);
    return absl::FailedPreconditionError(absl::StrCat(
        "cannot draw: a removal is available (", ActionToString(legal[0]),
        "), and you must always remove at least one domino when you can"));
  }
  if (action >= kTripleBase) {
    const int i = static_cast<int>(action - kTripleBase);
    if (i + 2 >= row_len_) {
      return absl::FailedPreconditionError(absl::StrCat(
          "positions ", i + 1, "-", i + 3, " are outside the row (", row_len_, " tiles)"));
    }
    return absl::FailedPreconditionError(
        absl::StrCat("option 2 removes three adjacent tiles that all share one number; ", tile(i),
                     " ", tile(i + 1), " ", tile(i + 2), " do not"));
  }
  const int i = static_cast<int>(action);
  if (i >= row_len_) {
    return absl::FailedPreconditionError(
        absl::StrCat("position ", i + 1, " is outside the row (", row_len_, " tiles)"));
  }
  if (i == 0 || i + 1 >= row_len_) {
    return absl::FailedPreconditionError(absl::StrCat(
        "option 1 removes a tile between two matching tiles; position ", i + 1,
        " has a neighbour on one side only"));
  }
  return absl::FailedPreconditionError(
      absl::StrCat("option 1 removes the middle tile only when its neighbours match; ",
                   tile(i - 1), " and ", tile(i + 1), " share no number"));
}

absl::Status CastleRockState::CheckInvariants() const {
  TileMask drawn;
  for (int i = 0; i < next_; ++i) drawn.Set(pile_[i]);
  TileMask all;
  for (int i = 0; i < pile_size_; ++i) {
    if (all.Test(pile_[i])) return absl::InternalError("a tile is twice in the pile");
    all.Set(pile_[i]);
  }
  if (all.Count() != crg_->tile_set().size()) return absl::InternalError("the pile lost tiles");
  TileMask in_row;
  for (int i = 0; i < row_len_; ++i) {
    if (!drawn.Test(row_[i]) || in_row.Test(row_[i])) {
      return absl::InternalError("the row holds a tile that was not drawn, or twice");
    }
    in_row.Set(row_[i]);
  }
  if (!terminal_ && row_len_ == 0) return absl::InternalError("empty row while play goes on");
  if (HasRemoval() != HasRemovalAnywhere()) {
    return absl::InternalError("a removal exists away from the end of the row");
  }
  if (terminal_ != (next_ == pile_size_ && !HasRemoval())) {
    return absl::InternalError("terminal flag disagrees with the rules");
  }
  return absl::OkStatus();
}

std::string CastleRockState::ToString() const {
  const TileSet& set = crg_->tile_set();
  std::string out = "row:";
  for (int i = 0; i < row_len_; ++i) absl::StrAppend(&out, " ", set.TileAt(row_[i]).ToString());
  absl::StrAppend(&out, " | pile:");
  for (int i = next_; i < pile_size_; ++i) absl::StrAppend(&out, " ", set.TileAt(pile_[i]).ToString());
  absl::StrAppend(&out, terminal_ ? " | over" : "");
  return out;
}

}  // namespace boneyard::castle_rock
