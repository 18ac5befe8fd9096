// Forty-Two — the Texas partnership trick-taking game, with its common variants as options.
//
// Rules as implemented (sheets 001, 003, 004 and the Forty-Two ruling in shared/rules/README.md;
// every choice is written out in docs/rules/forty_two.md):
//   * A double-6 set, 4 players, 7 tiles each. Partners sit opposite: teams {0,2} and {1,3}.
//   * Seat 0 shakes (deals) round 1; the shaker moves clockwise (seat+1) every round. Bidding
//     starts left of the shaker (shaker+1) and goes clockwise; the shaker bids last. Each seat
//     bids once or passes; a bid is 30..42 and must exceed the bid before it. If all four
//     pass, the tiles are reshuffled by the next shaker (a new round). Option
//     `shaker_must_bid`: when the first three pass, the shaker may not pass (it must bid).
//   * The highest bidder names trumps ("trump 4") and leads the first trick. A trump belongs
//     only to the trump suit; a led non-trump calls its higher end's suit; players must follow
//     suit when able; the double is highest in its suit, then by the other end; the highest
//     trump wins, else the highest of the led suit (engine/games/tricks/tricks.h). The trick's
//     winner leads the next. All seven tricks are played out.
//   * Each trick is 1 point; the counts 5-5, 6-4 (10), 5-0, 4-1, 3-2 (5) go to the team that
//     takes them: 42 points a hand.
//   * Made (bidders took at least the bid): each team scores what it took. Set: the bidders
//     score 0 and the opponents the bid plus what they took (bid 30 taking 35 → 35/7; bid 37
//     taking 35 → 0/44). Game to `target` (250); both teams past it on one hand → the bidding
//     team wins. Option `scoring=marks`: one mark to the team that wins a hand (the bidders
//     when made, the opponents when set), first to `marks_target` (7) wins.
//
// Variants (options, all off by default):
//   * mark_bidding: "bid 1 mark" (= 42) replaces "bid 42"; the opening mark bid may be 1 or 2
//     marks, later mark bids exactly one more mark than the highest. Bids of 42 or more need
//     every trick and every count.
//   * doubles_trump: "trump doubles" — the seven doubles are the trump suit (6-6 high).
//   * follow_me: "trump none" — no trumps.
//   * nello (nello_doubles = high|low|own): after a bid of 42 or more the bidder may call
//     "nello": partner's tiles sit out, no trumps, the bidder must lose every trick.
//   * sevens: after a bid of 42 or more the bidder may call "sevens": each player must play a
//     tile closest to 7 pips; the closest wins (first played on ties); bidders need every trick.
//   * plunge / splash: with at least 4 / 3 doubles, bid "plunge" (4 marks) / "splash"
//     (2 marks), or one mark more than the highest bid; partner names trumps and leads; the
//     bidders need every trick.
//
// Action codes: a tile id (0..27) plays that tile; kPass; kBidBase + points (130..142);
// kMarkBidBase + marks; kPlunge, kSplash; kTrumpBase + pip (300..306), kTrumpDoublesAction,
// kTrumpNoneAction, kNello, kSevens. Legal actions come in that order.
#ifndef BONEYARD_ENGINE_GAMES_FORTY_TWO_FORTY_TWO_H_
#define BONEYARD_ENGINE_GAMES_FORTY_TWO_FORTY_TWO_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/games/tricks/trick_view.h"
#include "engine/games/tricks/tricks.h"

namespace boneyard::forty_two {

// Forty-Two's table.
inline constexpr int kSeats = 4;
inline constexpr int kTiles = tricks::kSetTiles;
inline constexpr int kHandSize = 7;
inline constexpr int kTricks = 7;
inline constexpr int kHandPoints = 42;
inline constexpr int kMinBid = 30;
// The largest table the state is built for (Eighty-Four: 8 seats, 56 tiles, 9 tiles a hand).
inline constexpr int kMaxSeats = tricks::kMaxSeats;
inline constexpr int kMaxTiles = tricks::kMaxTiles;
inline constexpr int kMaxHand = 9;

// The table a game of the Forty-Two family is played at. Forty-Two is one table; Eighty-Four
// ("use the rules of Forty-Two" with two sets) is two more (engine/games/eighty_four/). Partners
// always alternate round the table: the teams are the even and the odd seats.
struct Table {
  int seats = kSeats;
  int num_tiles = kTiles;     // one or two double-6 sets (ids 0..27, then 28..55)
  int hand_size = kHandSize;  // also the number of tricks; tiles not dealt are left out
  int trick_points = 1;       // points a trick is worth
  int double_points = 0;      // points each double taken is worth
  int min_bid = kMinBid;
  int hand_points = kHandPoints;  // all a hand's points: the highest points bid, one mark
  friend bool operator==(const Table&, const Table&) = default;
};
inline constexpr Table kFortyTwoTable{};

// ----- Actions -----

inline constexpr Action kPass = 100;
inline constexpr Action kBidBase = 100;      // + points, 30..42
inline constexpr Action kMarkBidBase = 200;  // + marks, 1..
inline constexpr Action kPlunge = 280;
inline constexpr Action kSplash = 281;
inline constexpr Action kTrumpBase = 300;    // + pip, 0..6
inline constexpr Action kTrumpDoublesAction = 307;
inline constexpr Action kTrumpNoneAction = 308;
inline constexpr Action kNello = 309;
inline constexpr Action kSevens = 310;

constexpr bool IsPlay(Action a) { return a < kMaxTiles; }
// A bid of points (which points are legal depends on the table).
constexpr bool IsPointBid(Action a) { return a > kBidBase && a < kMarkBidBase; }
constexpr bool IsMarkBid(Action a) { return a > kMarkBidBase && a < kPlunge; }
constexpr bool IsBid(Action a) { return IsPointBid(a) || IsMarkBid(a) || a == kPlunge || a == kSplash; }
constexpr bool IsContract(Action a) { return a >= kTrumpBase && a <= kSevens; }

// What the declarer named after the bidding.
enum class Contract : uint8_t {
  kNone,    // not named yet
  kTrumps,  // a pip, doubles or none (follow-me): an ordinary hand
  kNello,
  kSevens,
};

// The bid that won, kept in "points": a mark is 42.
enum class BidKind : uint8_t { kPoints, kMarks, kPlunge, kSplash };

enum class Scoring : uint8_t { kPoints, kMarks };

// ----- Game -----

GameSpec Spec();

struct Options {
  Scoring scoring = Scoring::kPoints;
  int target = 250;
  int marks_target = 7;
  bool shaker_must_bid = false;
  bool mark_bidding = false;
  bool doubles_trump = false;
  bool follow_me = false;
  bool nello = false;
  tricks::DoublesRank nello_doubles = tricks::DoublesRank::kHigh;
  bool sevens = false;
  bool plunge = false;
  bool splash = false;
  // Eighty-Four with 6: the 2 tiles left out count for the team taking the last trick.
  bool left_out_to_last_trick = true;
};

class FortyTwoGame : public Game {
 public:
  // Forty-Two; `name` and `table` for the other games of the family (Eighty-Four).
  FortyTwoGame(Rules rules, Options options, std::string name = "forty_two",
               Table table = kFortyTwoTable);
  absl::Status ValidateDeal(int round, const Deal& deal) const override;
  const Options& options() const { return options_; }
  const Table& table() const { return table_; }

 protected:
  std::unique_ptr<State> MakeState(uint64_t seed,
                                   std::shared_ptr<const std::vector<Deal>> deals) const override;

 private:
  Options options_;
  Table table_;
};

// ----- View -----

using tricks::TrickView;

struct HandResult {
  int round = 0;
  int bidder = kNobody;       // kNobody when all passed
  std::string bid;            // "bid 31", "plunge", ...
  std::string contract;       // "trump 4", "nello", ...
  std::array<int, 2> taken{};   // points each team took
  bool made = false;
  std::array<int, 2> scored{};  // points (or marks) each team scored
};

class FortyTwoView : public View {
 public:
  enum class Phase { kBidding, kDeclaring, kPlaying, kOver };
  Phase phase = Phase::kBidding;
  int shaker = 0;
  std::vector<std::pair<int, Action>> bids;  // this hand, in order: (seat, bid or kPass)
  int high_bidder = kNobody;
  Action high_bid = kPass;       // the winning bid so far (kPass when none)
  int declarer = kNobody;        // who names the contract (the bidder, or its partner)
  Action contract = kPass;       // the named contract action, kPass until named
  int sitting_out = kNobody;     // nello: the bidder's partner
  tricks::TrickRules rules;      // trumps and suits, once the contract is named
  std::vector<TrickView> tricks;  // finished tricks of this hand, in order
  TrickView trick;               // the trick being played
  std::array<int, 2> taken{};    // points each team has taken this hand
  std::array<int, 2> team_scores{};
  std::array<int, 2> marks{};
  std::vector<std::vector<int>> void_suits;  // per seat: suits it has shown it cannot follow
  std::optional<HandResult> last_hand;
  Options options;
  Table table;

 protected:
  nlohmann::json LayoutJson() const override;
  std::string LayoutText() const override;
};

// ----- State -----

class FortyTwoState : public State {
 public:
  FortyTwoState(std::shared_ptr<const Game> game, uint64_t seed,
                std::shared_ptr<const std::vector<Deal>> deals);

  int CurrentSeat() const override { return terminal_ ? kNobody : current_; }
  bool IsTerminal() const override { return terminal_; }
  void LegalActions(ActionList& out) const override;
  void Apply(Action action) override;
  int Round() const override { return round_; }
  std::vector<int> Scores() const override;
  Deal CurrentDeal() const override;
  std::unique_ptr<State> Clone() const override;
  std::unique_ptr<View> ViewFor(int seat) const override;
  std::unique_ptr<State> Determinize(int seat, Rng& rng) const override;
  TileMask HiddenFrom(int seat) const override;
  std::string ActionToString(Action action) const override;
  absl::StatusOr<Action> ParseAction(absl::string_view text) const override;
  absl::Status ExplainIllegal(Action action) const override;
  absl::Status CheckInvariants() const override;
  std::string ToString() const override;
  nlohmann::json ResultDetails() const override;
  // The winning team ranks first even when the other team scored more (both past the target
  // on one hand: the bidding team wins).
  std::vector<int> Ranks() const override;

  // For tests and bots.
  tricks::Hand hand(int seat) const { return hands_[seat]; }
  const tricks::TrickRules& trick_rules() const { return rules_; }
  std::array<int, 2> taken() const { return {taken_[0], taken_[1]}; }
  std::array<int, 2> team_scores() const { return {scores_[0], scores_[1]}; }
  std::array<int, 2> marks() const { return {marks_[0], marks_[1]}; }
  int winning_team() const { return winner_team_; }
  // The play of a hand, for the open-hand solver (forty_two_solver.h).
  bool playing() const { return !terminal_ && phase_ == Phase::kPlaying; }
  const tricks::Trick& open_trick() const { return tricks_[num_tricks_]; }
  int bidder() const { return bidder_; }
  int bid_points() const { return bid_value_; }  // a mark is 42
  Contract contract() const { return contract_; }
  const Table& game_table() const { return table(); }

 private:
  enum class Phase : uint8_t { kBidding, kDeclaring, kPlaying };

  const Options& opts() const { return game_->options(); }
  const Table& table() const { return game_->table(); }
  int seats() const { return game_->table().seats; }
  int Partner(int seat) const { return (seat + 2) % seats(); }  // nello, plunge: 4 seats
  void StartRound(int round);
  void ApplyBid(Action action);
  void ApplyContract(Action action);
  void ApplyPlay(int tile);
  void FinishTrick();
  void EndHand();
  int NextInPlay(int seat) const;
  // The tiles dealt to nobody (Eighty-Four with 6 players: 2).
  tricks::Hand LeftOut() const;
  // What finished trick `i` is worth to the team taking it: the table's trick and double
  // points and the counts (the last trick also the left-out tiles', option
  // left_out_to_last_trick).
  int TrickPoints(int i) const;
  // The marks a bid is worth (points bids: 1), its value in points (a mark is 42).
  int BidValue(Action bid) const;
  int HighMarks() const;
  int Doubles(int seat) const { return std::popcount(hands_[seat] & tricks::kDoubleTiles); }
  // The doubles `seat` must still hold: a plunge (splash) bid showed 4 (3) in hand.
  int DoublesStillHeld(int seat) const;
  void BidActions(ActionList& out) const;
  void ContractActions(ActionList& out) const;
  HandResult MakeResult() const;

  const FortyTwoGame* game_;  // kept alive by State's shared_ptr
  std::shared_ptr<const std::vector<Deal>> deals_;
  uint64_t seed_;
  tricks::TrickRules rules_;
  std::array<tricks::Hand, kMaxSeats> hands_{};
  std::array<tricks::Hand, kMaxSeats> excluded_{};  // tiles each seat has shown it cannot hold
  std::array<uint8_t, kMaxSeats> voids_{};          // suits each seat has failed to follow (bits)
  // This round's deal: the hands in blocks of hand_size, then the tiles left out.
  std::array<uint8_t, kMaxTiles> deck_{};
  std::array<tricks::Trick, kMaxHand> tricks_{};  // this hand's tricks; tricks_[num_tricks_] open
  std::array<int8_t, kMaxHand> trick_winner_{};
  std::array<int32_t, 2> scores_{};
  std::array<int32_t, 2> marks_{};
  std::array<int16_t, 2> taken_{};
  tricks::BiddingRound bidding_;
  std::array<uint16_t, kMaxSeats> calls_{};  // what each seat said this hand (a bid or kPass)
  HandResult last_;
  bool has_last_ = false;
  Action bid_action_ = kPass;  // the winning bid
  Action contract_action_ = kPass;
  int32_t round_ = 0;  // all-pass redeals may repeat without end
  int16_t bid_value_ = 0;
  int8_t bid_marks_ = 0;
  int8_t bidder_ = kNobody;
  int8_t declarer_ = kNobody;
  int8_t sitting_out_ = kNobody;
  int8_t shaker_ = 0;
  int8_t current_ = 0;
  int8_t num_tricks_ = 0;
  int8_t winner_team_ = -1;
  Phase phase_ = Phase::kBidding;
  Contract contract_ = Contract::kNone;
  bool terminal_ = false;
};

// Helpers shared with the bots.
std::string BidText(Action bid);

}  // namespace boneyard::forty_two

#endif  // BONEYARD_ENGINE_GAMES_FORTY_TWO_FORTY_TWO_H_
