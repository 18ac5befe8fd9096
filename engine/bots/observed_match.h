// A match as one seat has seen it, rebuilt into an engine State, so that a program holding
// only that seat's views (a remote bot) can run any built-in bot — the search levels
// included — exactly as the execution service would for that seat.
//
// What a seat sees is its view before and after every event and every event's public text
// (State::PublicActionToString). The rebuilt State has the same public history and shows the
// seat the same view; the tiles hidden from the seat sit wherever a consistent deal put them.
// Since a bot only ever sees the view and worlds drawn by Determinize(seat), which deals the
// hidden tiles anew, it chooses from the rebuilt State what it would choose from the real one
// (tests/engine/observed_match_test.cc checks both, game by game).
//
// How: each round's deal gives the seat its observed hand and the other tiles at random; the
// events are played in order. An event the rebuilt match cannot play as seen — another seat
// plays a tile dealt elsewhere, draws while holding a tile that fits, fails to follow suit while
// holding the suit; the seat draws a tile dealt lower in the boneyard; a round's end counts
// other pips than were seen — is tried again on Determinize(seat) of the state before it (the
// hidden tiles dealt anew consistently with everything public so far) until one deal plays it
// as seen. Only the present has to be made consistent: the engine's state carries what the
// past made public (voids, passes) and Determinize honours it. A round is dealt when the event
// that begins it is played, again at random until the seat's view matches (the first player
// may depend on who holds a double). Where a round takes tiles out of hands as it begins
// (Mexican Train's house engine goes from its holder's hand to the table), the seat's share of
// the deal is its hand and tiles dealt at random in place of those it gave up, redealt like
// the rest until the round begins as seen. Nothing here knows a game.
//
// Not rebuilt (Observe refuses, so a remote bot says so and plays at random): a round whose
// beginning draws tiles into hands before anyone plays (Mexican Train's house rules when nobody
// holds an unused double: everyone draws until one turns up), since which tiles of the hand were
// drawn, and from where in the boneyard, is not in the view; and Castle Rock, whose row is
// turned up from the pile three tiles at a time, in an order a pile dealt anew seldom matches.
//
// One thing it may fail to reproduce: the pips each seat is left holding when a round ends,
// which train games and Muggins count into the scores. With several hidden hands at once,
// sampled deals seldom leave each one exactly the pips seen. After kExactRedeals tries at such
// an event the rebuilt match ends the round with other pips — everything else as seen — and
// from then on shows other scores (exact() turns false), which are no longer compared. In the train
// games a search bot scores a playout by the gains within its round, so its choices do not change.
#ifndef BONEYARD_ENGINE_BOTS_OBSERVED_MATCH_H_
#define BONEYARD_ENGINE_BOTS_OBSERVED_MATCH_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine/core/game.h"
#include "engine/core/rng.h"
#include "engine/core/tile.h"
#include "nlohmann/json.hpp"

namespace boneyard {

class ObservedMatch {
 public:
  // Redeals tried for one event before it is called impossible. An own draw is the least
  // likely event (one hidden tile in the boneyard's first place, about one in 80 with a
  // double-twelve set): 8,192 tries leave a chance below 1e-40 of missing it.
  static constexpr int kMaxRedeals = 8192;
  // Deals tried for a round that begins (per redeal of the event that begins it); the first
  // round, which has no event before it, gets kMaxRedeals.
  static constexpr int kMaxRoundDeals = 32;
  // Redeals tried for an event that ends a round before its end is matched without the pips.
  static constexpr int kExactRedeals = 4096;

  // `seed` only picks where the hidden tiles start; any seed rebuilds a consistent State.
  ObservedMatch(std::shared_ptr<const Game> game, int seat, uint64_t seed = 1);

  // What the seat sees is its view as View::ToJson() writes it; every key given is compared
  // ("hand" as a set of tiles, in any order), so a client may leave out what it did not
  // receive. "hand" is required.
  //
  // The view at sequence 0, before any event. Call once, first. FAILED_PRECONDITION when no
  // deal gives the seat this view.
  absl::Status Start(const nlohmann::json& view);
  // One event as the seat saw it: the seat that acted, the action's public text, and the
  // seat's view right after it. FAILED_PRECONDITION naming the event when no deal plays it as
  // seen (the observations contradict each other or the rules); the match is then as before.
  absl::Status Observe(int actor, absl::string_view public_action, const nlohmann::json& view);

  int seat() const { return seat_; }
  // Events observed so far.
  int events() const { return events_; }
  // Whether every view so far was reproduced in full; false once a round ended with other
  // pips left than seen (scores differ; see above).
  bool exact() const { return exact_; }
  // The rebuilt match after the events observed so far. Start() must have succeeded.
  const State& state() const { return *state_; }

 private:
  // Whether `state` shows the seat `view`; `loose`: but for the scores and the last round's
  // result (once a round has ended loosely, for good).
  bool Shows(const State& state, const nlohmann::json& view, bool loose) const;
  // Plays `action` on a copy of `world`; a round it begins is dealt to show `view` (whose hand,
  // parsed, is `hand`). Null when no deal tried does. `loose`: a round's or the match's end need
  // not show the same scores.
  std::unique_ptr<State> PlayAsSeen(const State& world, Action action, const nlohmann::json& view,
                                    const std::vector<Tile>& hand, bool loose);
  // A deal shaped like `shape` (its tiles, hand sizes and boneyard size) in which the seat holds
  // `hand` and every other tile lies at random; an error when `shape` lacks a tile of `hand` or
  // the game refuses the deal. Where `hand` is short of the seat's share (the round took tiles
  // out of hands as it began), the rest of the share is dealt at random too.
  absl::StatusOr<Deal> DealWithHand(int round, const Deal& shape, const std::vector<Tile>& hand);

  std::shared_ptr<const Game> game_;
  int seat_;
  uint64_t seed_;
  int events_ = 0;
  bool exact_ = true;
  // Read by the rebuilt states as each round begins; written just before.
  std::shared_ptr<std::vector<Deal>> deals_;
  Rng rng_;
  std::unique_ptr<State> state_;
};

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_BOTS_OBSERVED_MATCH_H_
