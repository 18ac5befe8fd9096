// The engine's two central types, after OpenSpiel's Game/State split.
//
// A Game is immutable: the kind, the resolved rule options, the seats and teams. It makes
// States. A State is one whole match (every round until the winner is known) and changes only
// through Apply(). Each round's shuffle comes from a portable RNG seeded by (match seed,
// round), or from an explicit deal (a record's), so (game, rules, seed or deals, actions)
// reproduces a match exactly.
#ifndef BONEYARD_ENGINE_CORE_GAME_H_
#define BONEYARD_ENGINE_CORE_GAME_H_

#include <cstdint>
#include <memory>
#include <string>
#include "absl/strings/string_view.h"
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine/core/action.h"
#include "engine/core/rng.h"
#include "engine/core/rules.h"
#include "engine/core/tile.h"
#include "engine/core/tile_mask.h"
#include "engine/core/view.h"
#include "nlohmann/json.hpp"

namespace boneyard {

// One round's deal: each seat's hand and the boneyard, first drawn first.
struct Deal {
  std::vector<std::vector<Tile>> hands;
  std::vector<Tile> boneyard;
  friend bool operator==(const Deal&, const Deal&) = default;
};

enum class ScoreOrder { kHigherWins, kLowerWins };

// Teams as lists of seats; empty when every seat plays for itself.
using Teams = std::vector<std::vector<int>>;

class State;

class Game : public std::enable_shared_from_this<Game> {
 public:
  Game(std::string name, Rules rules, int num_seats, Teams teams, TileSet tile_set,
       ScoreOrder order);
  virtual ~Game() = default;

  const std::string& name() const { return name_; }
  const Rules& rules() const { return rules_; }
  int num_seats() const { return num_seats_; }
  const Teams& teams() const { return teams_; }
  // The team of `seat`, or the seat itself when there are no teams.
  int TeamOf(int seat) const { return team_of_[seat]; }
  const TileSet& tile_set() const { return tile_set_; }
  ScoreOrder score_order() const { return order_; }

  // A new match. Round r (0-based) uses deals[r] when given, else a shuffle seeded by
  // DeriveSeed(seed, r). Deals are checked with ValidateDeal.
  absl::StatusOr<std::unique_ptr<State>> NewMatch(uint64_t seed,
                                                  std::vector<Deal> deals = {}) const;

  // A match that reads round r's deal from (*deals)[r] when round r begins (a shuffle when
  // there is none), so whoever holds the vector may write a round's deal, checked with
  // ValidateDeal, just before the event that begins that round — how ObservedMatch deals each
  // round as one seat saw it without replaying the match. States cloned from it share `deals`.
  std::unique_ptr<State> NewMatchReadingDeals(uint64_t seed,
                                              std::shared_ptr<const std::vector<Deal>> deals) const {
    return MakeState(seed, std::move(deals));
  }

  // Checks that `deal` could be round `round`'s deal under these rules: the right tiles,
  // each exactly once, the right hand sizes. The error names the rule.
  virtual absl::Status ValidateDeal(int round, const Deal& deal) const = 0;

 protected:
  virtual std::unique_ptr<State> MakeState(uint64_t seed,
                                           std::shared_ptr<const std::vector<Deal>> deals) const = 0;
  // Shared check: `deal` holds exactly the tiles of `expected`, hands sized `hand_sizes`.
  absl::Status CheckDealTiles(int round, const Deal& deal, const std::vector<Tile>& expected,
                              const std::vector<int>& hand_sizes) const;

 private:
  std::string name_;
  Rules rules_;
  int num_seats_;
  Teams teams_;
  std::vector<int> team_of_;
  TileSet tile_set_;
  ScoreOrder order_;
};

class State {
 public:
  explicit State(std::shared_ptr<const Game> game) : game_(std::move(game)) {}
  virtual ~State() = default;

  const Game& game() const { return *game_; }
  std::shared_ptr<const Game> game_ptr() const { return game_; }

  // kNobody once the match is over.
  virtual int CurrentSeat() const = 0;
  virtual bool IsTerminal() const = 0;
  // Appends the legal actions of the current seat, unique and in ascending order.
  virtual void LegalActions(ActionList& out) const = 0;
  // Applies a legal action (an engine invariant: callers check legality first).
  virtual void Apply(Action action) = 0;
  // 0-based index of the round being played (or the last one, once over).
  virtual int Round() const = 0;
  // Match score per seat (a team's score on each member).
  virtual std::vector<int> Scores() const = 0;
  // The deal of the current round.
  virtual Deal CurrentDeal() const = 0;
  virtual std::unique_ptr<State> Clone() const = 0;
  // What `seat` may know, or a spectator's view for kSpectator.
  virtual std::unique_ptr<View> ViewFor(int seat) const = 0;
  // A copy in which every tile hidden from `seat` is dealt anew at random, consistently with
  // everything `seat` has seen, so that ViewFor(seat) is unchanged. For search bots.
  virtual std::unique_ptr<State> Determinize(int seat, Rng& rng) const = 0;
  // Tiles `seat` may not see right now (other hands, the boneyard); all hidden tiles for a
  // spectator. Used by the leak checks.
  virtual TileMask HiddenFrom(int seat) const = 0;

  virtual std::string ActionToString(Action action) const = 0;
  // The action as every seat and spectator may see it (the service's match events): its
  // notation, except where that names a tile hidden from the others — Moon's discard is face
  // down, so it shows as "discard". Called, like ActionToString, before the action is applied.
  virtual std::string PublicActionToString(Action action) const { return ActionToString(action); }
  // Syntax only: INVALID_ARGUMENT naming the problem when `text` is not an action of this game.
  virtual absl::StatusOr<Action> ParseAction(absl::string_view text) const = 0;
  // Why a well-formed action is not legal now: FAILED_PRECONDITION naming the rule.
  virtual absl::Status ExplainIllegal(Action action) const;
  // Engine invariants (tiles conserved, counts consistent); an error names what broke.
  virtual absl::Status CheckInvariants() const = 0;
  // The whole state, hidden tiles included, for tests and debugging: equal strings mean
  // equal states.
  virtual std::string ToString() const = 0;
  // Game-specific result details for records (e.g. tiles and pips left).
  virtual nlohmann::json ResultDetails() const { return nlohmann::json::object(); }

  // Rank of each seat, 1 = best; tied seats (and team mates) share a rank. By default from
  // Scores() in the game's score order; a game whose winner is not simply the best score
  // overrides it (Forty-Two: both teams past the target on one hand → the bidding team wins).
  // Records, the referee, the CLI and the services take a match's ranks and winners from here.
  virtual std::vector<int> Ranks() const;
  std::vector<std::string> LegalActionStrings() const;
  bool IsLegal(Action action) const;
  // Parses `text` as `seat`'s action and checks it is legal now: INVALID_ARGUMENT when
  // malformed, FAILED_PRECONDITION (with the rule) when illegal or not `seat`'s turn.
  absl::StatusOr<Action> ResolveAction(int seat, absl::string_view text) const;

 protected:
  State(const State&) = default;
  State& operator=(const State&) = default;
  // Ranks by `keys` (one per seat) in the game's score order: what the default Ranks() does
  // with Scores(), for overrides that rank by something else.
  std::vector<int> RanksBy(const std::vector<int>& keys) const;

 private:
  std::shared_ptr<const Game> game_;
};

}  // namespace boneyard

#endif  // BONEYARD_ENGINE_CORE_GAME_H_
