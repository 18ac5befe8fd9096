#include "engine/bots/observed_match.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/action.h"
#include "engine/core/view.h"

namespace boneyard {
namespace {

std::string Describe(int index, int actor, absl::string_view action) {
  return absl::StrCat("event ", index, " (seat ", actor, " '", action, "')");
}

// The tiles of a view's "hand", in its order.
absl::StatusOr<std::vector<Tile>> HandTiles(const nlohmann::json& view) {
  if (!view.is_object() || !view.contains("hand") || !view["hand"].is_array()) {
    return absl::InvalidArgumentError("the view has no \"hand\"");
  }
  std::vector<Tile> hand;
  for (const nlohmann::json& text : view["hand"]) {
    if (!text.is_string()) return absl::InvalidArgumentError("a tile of \"hand\" is not text");
    absl::StatusOr<Tile> tile = Tile::Parse(text.get<std::string>());
    if (!tile.ok()) return tile.status();
    hand.push_back(*tile);
  }
  return hand;
}

std::vector<std::string> SortedStrings(const nlohmann::json& array) {
  std::vector<std::string> out;
  for (const nlohmann::json& v : array) out.push_back(v.is_string() ? v.get<std::string>() : "");
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

ObservedMatch::ObservedMatch(std::shared_ptr<const Game> game, int seat, uint64_t seed)
    : game_(std::move(game)),
      seat_(seat),
      seed_(seed),
      deals_(std::make_shared<std::vector<Deal>>()),
      rng_(seed) {}

bool ObservedMatch::Shows(const State& state, const nlohmann::json& view, bool loose) const {
  const nlohmann::json mine = state.ViewFor(seat_)->ToJson();
  for (const auto& [key, value] : view.items()) {
    if (!mine.contains(key)) return false;
    if (loose && key == "scores") continue;
    if (loose && key == "layout" && value.is_object() && mine[key].is_object()) {
      nlohmann::json a = value, b = mine[key];
      a.erase("last_round");
      b.erase("last_round");
      if (a != b) return false;
    } else if (key == "hand") {
      if (SortedStrings(mine[key]) != SortedStrings(value)) return false;
    } else if (mine[key] != value) {  // nlohmann compares 3 and 3.0 as equal numbers
      return false;
    }
  }
  return true;
}

absl::StatusOr<Deal> ObservedMatch::DealWithHand(int round, const Deal& shape,
                                                 const std::vector<Tile>& hand) {
  std::vector<Tile> rest;
  for (const std::vector<Tile>& h : shape.hands) rest.insert(rest.end(), h.begin(), h.end());
  rest.insert(rest.end(), shape.boneyard.begin(), shape.boneyard.end());
  std::sort(rest.begin(), rest.end());
  for (const Tile& tile : hand) {
    auto it = std::lower_bound(rest.begin(), rest.end(), tile);
    if (it == rest.end() || *it != tile) {
      return absl::FailedPreconditionError(
          absl::StrCat("round ", round + 1, "'s deal cannot give the seat ", tile.ToString()));
    }
    rest.erase(it);
  }
  for (int i = static_cast<int>(rest.size()) - 1; i > 0; --i) {
    std::swap(rest[i], rest[rng_.Below(static_cast<uint32_t>(i + 1))]);
  }
  Deal deal;
  auto next = rest.begin();
  auto take = [&](size_t n) -> std::vector<Tile> {
    n = std::min<size_t>(n, rest.end() - next);
    std::vector<Tile> out(next, next + n);
    next += n;
    return out;
  };
  for (int s = 0; s < static_cast<int>(shape.hands.size()); ++s) {
    // A round that takes tiles out of hands as it begins (Mexican Train's house engine) shows the
    // seat fewer than its share: the rest of the share is dealt at random like the hidden tiles
    // (the caller redeals until the round begins as seen).
    if (s != seat_) {
      deal.hands.push_back(take(shape.hands[s].size()));
    } else {
      deal.hands.push_back(hand);
      const std::vector<Tile> gave_up =
          take(shape.hands[s].size() - std::min(hand.size(), shape.hands[s].size()));
      deal.hands.back().insert(deal.hands.back().end(), gave_up.begin(), gave_up.end());
    }
  }
  deal.boneyard = take(shape.boneyard.size());
  if (absl::Status valid = game_->ValidateDeal(round, deal); !valid.ok()) {
    return absl::FailedPreconditionError(valid.message());
  }
  return deal;
}

absl::Status ObservedMatch::Start(const nlohmann::json& view) {
  if (state_ != nullptr) return absl::FailedPreconditionError("Start() was called already");
  if (seat_ < 0 || seat_ >= game_->num_seats()) {
    return absl::InvalidArgumentError(
        absl::StrCat("seat ", seat_, " is not a seat of ", game_->name()));
  }
  absl::StatusOr<std::vector<Tile>> hand = HandTiles(view);
  if (!hand.ok()) return hand.status();
  absl::StatusOr<std::unique_ptr<State>> shaped = game_->NewMatch(seed_);
  if (!shaped.ok()) return shaped.status();
  const Deal shape = (*shaped)->CurrentDeal();
  for (int attempt = 0; attempt < kMaxRedeals; ++attempt) {
    absl::StatusOr<Deal> deal = DealWithHand(0, shape, *hand);
    if (!deal.ok()) return deal.status();
    *deals_ = {*std::move(deal)};
    std::unique_ptr<State> state = game_->NewMatchReadingDeals(seed_, deals_);
    if (Shows(*state, view, false)) {
      state_ = std::move(state);
      return absl::OkStatus();
    }
  }
  deals_->clear();
  return absl::FailedPreconditionError(
      absl::StrCat("no deal shows seat ", seat_, " the first view it saw"));
}

std::unique_ptr<State> ObservedMatch::PlayAsSeen(const State& world, Action action,
                                                 const nlohmann::json& view,
                                                 const std::vector<Tile>& hand, bool loose) {
  std::unique_ptr<State> next = world.Clone();
  next->Apply(action);
  if (next->Round() == world.Round() && !next->IsTerminal()) {
    return Shows(*next, view, !exact_) ? std::move(next) : nullptr;
  }
  if (next->IsTerminal()) return Shows(*next, view, loose) ? std::move(next) : nullptr;
  // The action began a round, dealt by the engine's shuffle: deal it as the seat saw it.
  const int round = next->Round();
  if (round != static_cast<int>(deals_->size()) && round != static_cast<int>(deals_->size()) - 1) {
    return nullptr;  // a round began that the seat never saw begin
  }
  const Deal shape = next->CurrentDeal();
  for (int attempt = 0; attempt < kMaxRoundDeals; ++attempt) {
    absl::StatusOr<Deal> deal = DealWithHand(round, shape, hand);
    if (!deal.ok()) return nullptr;
    deals_->resize(round);
    deals_->push_back(*std::move(deal));
    next = world.Clone();
    next->Apply(action);
    if (Shows(*next, view, loose)) return next;
  }
  return nullptr;
}

absl::Status ObservedMatch::Observe(int actor, absl::string_view public_action,
                                    const nlohmann::json& view) {
  if (state_ == nullptr) return absl::FailedPreconditionError("Start() first");
  const int index = events_ + 1;
  const absl::StatusOr<std::vector<Tile>> hand = HandTiles(view);
  if (!hand.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(Describe(index, actor, public_action), ": ", hand.status().message()));
  }
  if (state_->IsTerminal()) {
    return absl::FailedPreconditionError(
        absl::StrCat(Describe(index, actor, public_action), ": the match is already over"));
  }
  if (state_->CurrentSeat() != actor) {
    return absl::FailedPreconditionError(absl::StrCat(
        Describe(index, actor, public_action), ": it is seat ", state_->CurrentSeat(), "'s turn"));
  }
  ActionList legal;
  std::vector<Action> matching;
  for (int attempt = 0; attempt <= kMaxRedeals; ++attempt) {
    std::unique_ptr<State> world =
        attempt == 0 ? state_->Clone() : state_->Determinize(seat_, rng_);
    legal.clear();
    world->LegalActions(legal);
    matching.clear();
    for (Action action : legal) {
      if (world->PublicActionToString(action) == public_action) matching.push_back(action);
    }
    // Several actions look alike to the seat only when they differ in a hidden tile (Moon's
    // face-down discard): any of them will do, tried from a random one.
    const size_t first = matching.size() <= 1 ? 0 : rng_.Below(matching.size());
    const bool loose = !exact_ || attempt >= kExactRedeals;
    for (size_t i = 0; i < matching.size(); ++i) {
      std::unique_ptr<State> next =
          PlayAsSeen(*world, matching[(first + i) % matching.size()], view, *hand, loose);
      if (next != nullptr) {
        // A round's end that was matched loosely ends this round only: the next is dealt anew.
        exact_ = exact_ && (!loose || Shows(*next, view, false));
        state_ = std::move(next);
        ++events_;
        return absl::OkStatus();
      }
    }
  }
  return absl::FailedPreconditionError(
      absl::StrCat(Describe(index, actor, public_action), ": no deal consistent with what seat ",
                   seat_, " has seen plays it as seen (", kMaxRedeals, " tried)"));
}

}  // namespace boneyard
