#include "engine/games/moon/moon.h"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace boneyard::moon {

using tricks::Bit;
using tricks::Hand;
using tricks::HandText;
using tricks::TileName;

namespace {

constexpr int kWidowSlot = kSeats * kHandSize;

std::string BidName(int tricks) { return tricks == 0 ? "pass" : absl::StrCat("bid ", tricks); }

const char* PhaseName(MoonView::Phase p) {
  switch (p) {
    case MoonView::Phase::kBidding: return "bidding";
    case MoonView::Phase::kDeclaring: return "declaring";
    case MoonView::Phase::kDiscarding: return "discarding";
    case MoonView::Phase::kPlaying: return "playing";
    case MoonView::Phase::kOver: return "over";
  }
  return "";
}

std::vector<Tile> MoonTileList() {
  std::vector<Tile> out;
  for (Hand h = kMoonTiles; h; h &= h - 1) out.push_back(tricks::TileOf(std::countr_zero(h)));
  return out;
}

}  // namespace

// ----- Game -----

GameSpec Spec() {
  GameSpec spec;
  spec.name = "moon";
  spec.title = "Moon";
  spec.summary =
      "Three-handed tricks with 22 tiles and a widow: bid 4-7 tricks or 21 (shoot the moon), "
      "name trumps, discard, take tricks; first to 21 wins.";
  spec.min_seats = kSeats;
  spec.max_seats = kSeats;
  spec.default_bot = "heuristic";
  spec.options = {
      OptionSpec::Int("target", 21, 7, 250, "points that win the game"),
      OptionSpec::Bool("no_trump", false, "the bidder may name \"trump none\": play without trumps"),
      OptionSpec::Int("max_hands", 0, 0, 1000,
                      "not in the sheets: after this many hands (all-pass redeals included) the "
                      "match ends and the highest score wins; 0 = no limit, game to `target`"),
  };
  spec.presets = {Preset{"standard", "the rule sheets: bids 4-7 and 21, game to 21", {}}};
  spec.factory = [](const Rules& rules) -> absl::StatusOr<std::shared_ptr<const Game>> {
    Options o;
    o.target = static_cast<int>(rules.GetInt("target"));
    o.no_trump = rules.GetBool("no_trump");
    o.max_hands = static_cast<int>(rules.GetInt("max_hands"));
    return std::make_shared<MoonGame>(rules, o);
  };
  return spec;
}

MoonGame::MoonGame(Rules rules, Options options)
    : Game("moon", std::move(rules), kSeats, Teams{}, *TileSet::DoubleN(6),
           ScoreOrder::kHigherWins),
      options_(options) {}

absl::Status MoonGame::ValidateDeal(int round, const Deal& deal) const {
  if (absl::Status s = CheckDealTiles(round, deal, MoonTileList(), std::vector<int>(kSeats, kHandSize));
      !s.ok()) {
    return s;
  }
  if (deal.boneyard.size() != 1) {
    return absl::InvalidArgumentError(absl::StrCat("round ", round + 1,
                                                   " deal: the widow is one tile, not ",
                                                   deal.boneyard.size()));
  }
  return absl::OkStatus();
}

std::unique_ptr<State> MoonGame::MakeState(uint64_t seed,
                                           std::shared_ptr<const std::vector<Deal>> deals) const {
  return std::make_unique<MoonState>(shared_from_this(), seed, std::move(deals));
}

// ----- State -----

MoonState::MoonState(std::shared_ptr<const Game> game, uint64_t seed,
                     std::shared_ptr<const std::vector<Deal>> deals)
    : State(std::move(game)),
      game_(static_cast<const MoonGame*>(&this->game())),
      deals_(std::move(deals)),
      seed_(seed) {
  StartRound(0);
}

void MoonState::StartRound(int round) {
  round_ = round;
  shaker_ = static_cast<int8_t>(round % kSeats);
  if (round < static_cast<int>(deals_->size())) {
    const Deal& deal = (*deals_)[round];
    int i = 0;
    for (const auto& hand : deal.hands) {
      for (const Tile& t : hand) deck_[i++] = static_cast<uint8_t>(tricks::IdOf(t));
    }
    deck_[kWidowSlot] = static_cast<uint8_t>(tricks::IdOf(deal.boneyard[0]));
  } else {
    int i = 0;
    for (Hand h = kMoonTiles; h; h &= h - 1) deck_[i++] = static_cast<uint8_t>(std::countr_zero(h));
    Rng rng(DeriveSeed(seed_, static_cast<uint64_t>(round)));
    rng.Shuffle(deck_.data(), kNumTiles);
  }
  hands_ = {};
  for (int s = 0; s < kSeats; ++s) {
    for (int k = 0; k < kHandSize; ++k) hands_[s] |= Bit(deck_[s * kHandSize + k]);
  }
  excluded_ = {};
  voids_ = {};
  tricks_ = {};
  trick_winner_ = {};
  tricks_taken_ = {};
  said_ = {-1, -1, -1};
  order_ = {};
  spoken_ = 0;
  bid_ = 0;
  bidder_ = kNobody;
  trump_ = tricks::kNoTrump;
  trump_named_ = false;
  widow_taken_ = false;
  discard_ = -1;
  num_tricks_ = 0;
  rules_ = tricks::TrickRules();
  phase_ = Phase::kBidding;
  current_ = static_cast<int8_t>((shaker_ + 1) % kSeats);
}

void MoonState::LegalActions(ActionList& out) const {
  if (terminal_) return;
  switch (phase_) {
    case Phase::kBidding:
      out.push_back(kPass);
      if (bid_ < 7) {
        for (int n = std::max(4, bid_ + 1); n <= 7; ++n) out.push_back(kBidBase + n);
      }
      out.push_back(kBidBase + kShootTheMoon);
      return;
    case Phase::kDeclaring:
      for (int pip = 0; pip < tricks::kPipSuits; ++pip) out.push_back(kTrumpBase + pip);
      if (game_->options().no_trump) out.push_back(kTrumpNone);
      return;
    case Phase::kDiscarding:
      for (Hand h = hands_[current_]; h; h &= h - 1) out.push_back(kDiscardBase + std::countr_zero(h));
      return;
    case Phase::kPlaying: {
      const tricks::Trick& trick = tricks_[num_tricks_];
      const int led = trick.empty() ? -1 : rules_.LedSuit(trick.tiles[0]);
      for (Hand h = rules_.LegalPlays(hands_[current_], led); h; h &= h - 1) {
        out.push_back(static_cast<Action>(std::countr_zero(h)));
      }
      return;
    }
  }
}

void MoonState::Apply(Action action) {
  switch (phase_) {
    case Phase::kBidding:
      ApplyBid(action);
      return;
    case Phase::kDeclaring:
      trump_ = static_cast<int8_t>(action == kTrumpNone ? tricks::kNoTrump
                                                        : static_cast<int>(action - kTrumpBase));
      trump_named_ = true;
      rules_ = tricks::TrickRules(trump_, tricks::DoublesRank::kHigh, false, tricks::kSetTiles);
      phase_ = Phase::kDiscarding;
      return;
    case Phase::kDiscarding:
      discard_ = static_cast<int8_t>(action - kDiscardBase);
      hands_[current_] &= ~Bit(discard_);
      phase_ = Phase::kPlaying;  // the bidder leads
      return;
    case Phase::kPlaying:
      ApplyPlay(static_cast<int>(action));
      return;
  }
}

void MoonState::ApplyBid(Action action) {
  const int n = action == kPass ? 0 : static_cast<int>(action - kBidBase);
  said_[current_] = static_cast<int8_t>(n);
  order_[spoken_++] = current_;
  if (n > 0) {
    bid_ = static_cast<int8_t>(n);
    bidder_ = current_;
  }
  if (spoken_ == kSeats || n == kShootTheMoon) {
    EndBidding();
    return;
  }
  current_ = static_cast<int8_t>((current_ + 1) % kSeats);
}

void MoonState::EndBidding() {
  if (bidder_ < 0) {
    EndHand();  // all passed: the next shaker redeals
    return;
  }
  // The bidder takes the widow into hand, then names trumps and discards.
  hands_[bidder_] |= Bit(deck_[kWidowSlot]);
  widow_taken_ = true;
  phase_ = Phase::kDeclaring;
  current_ = bidder_;
}

void MoonState::ApplyPlay(int tile) {
  tricks::Trick& trick = tricks_[num_tricks_];
  tricks::NoteVoid(rules_, trick, tile, voids_[current_], excluded_[current_]);
  hands_[current_] &= ~Bit(tile);
  trick.Add(current_, tile);
  if (trick.size < kSeats) {
    current_ = static_cast<int8_t>((current_ + 1) % kSeats);
    return;
  }
  const int winner = trick.seats[tricks::WinningIndex(trick, rules_)];
  trick_winner_[num_tricks_] = static_cast<int8_t>(winner);
  ++tricks_taken_[winner];
  ++num_tricks_;
  if (num_tricks_ == kTricks) {
    EndHand();
  } else {
    current_ = static_cast<int8_t>(winner);
  }
}

MoonHandResult MoonState::MakeResult() const {
  MoonHandResult r;
  r.round = round_;
  r.bidder = bidder_;
  if (bidder_ < 0) return r;
  r.bid = bid_;
  r.trump = ActionToString(trump_ == tricks::kNoTrump ? kTrumpNone : kTrumpBase + trump_);
  for (int s = 0; s < kSeats; ++s) r.tricks[s] = tricks_taken_[s];
  const int need = bid_ == kShootTheMoon ? kTricks : bid_;
  r.made = tricks_taken_[bidder_] >= need;
  for (int s = 0; s < kSeats; ++s) r.scored[s] = tricks_taken_[s];
  if (r.made && bid_ == kShootTheMoon) r.scored[bidder_] = kShootTheMoon;
  if (!r.made) r.scored[bidder_] = -bid_;
  return r;
}

void MoonState::EndHand() {
  last_ = MakeResult();
  has_last_ = true;
  if (bidder_ >= 0) {
    const int target = game_->options().target;
    bool reached = false;
    for (int s = 0; s < kSeats; ++s) {
      scores_[s] += last_.scored[s];
      reached |= scores_[s] >= target;
    }
    if (reached) {
      terminal_ = true;
      current_ = kNobody;
      // Several reached the target: the bidder if among them, else the higher score (a tie
      // for it leaves winner_ kNobody and the tied seats share the first rank).
      winner_ = scores_[bidder_] >= target ? bidder_ : SoleHighest();
      return;
    }
  }
  const int max_hands = game_->options().max_hands;
  if (max_hands > 0 && round_ + 1 >= max_hands) {
    // The optional limit: the highest score wins (a tie for it shares the first rank).
    terminal_ = true;
    current_ = kNobody;
    winner_ = SoleHighest();
    return;
  }
  StartRound(round_ + 1);
}

int8_t MoonState::SoleHighest() const {
  const int best = *std::max_element(scores_.begin(), scores_.end());
  if (std::count(scores_.begin(), scores_.end(), best) > 1) return kNobody;
  return static_cast<int8_t>(std::find(scores_.begin(), scores_.end(), best) - scores_.begin());
}

std::vector<int> MoonState::Ranks() const {
  std::vector<int> keys = Scores();
  if (terminal_ && winner_ >= 0) keys[winner_] = INT_MAX;  // the winner ranks first
  return RanksBy(keys);
}

Deal MoonState::CurrentDeal() const {
  Deal deal;
  deal.hands.resize(kSeats);
  for (int s = 0; s < kSeats; ++s) {
    for (int k = 0; k < kHandSize; ++k) deal.hands[s].push_back(tricks::TileOf(deck_[s * kHandSize + k]));
  }
  deal.boneyard.push_back(tricks::TileOf(deck_[kWidowSlot]));
  return deal;
}

// ----- Hidden information -----

TileMask MoonState::HiddenFrom(int seat) const {
  Hand hidden = 0;
  for (int s = 0; s < kSeats; ++s) {
    if (s != seat) hidden |= hands_[s];
  }
  if (!widow_taken_) hidden |= Bit(deck_[kWidowSlot]);
  if (discard_ >= 0 && seat != bidder_) hidden |= Bit(discard_);
  TileMask mask;
  for (; hidden; hidden &= hidden - 1) mask.Set(std::countr_zero(hidden));
  return mask;
}

Hand MoonState::Unplayed() const {
  Hand h = hands_[0] | hands_[1] | hands_[2];
  if (!widow_taken_) h |= Bit(deck_[kWidowSlot]);
  if (discard_ >= 0) h |= Bit(discard_);
  return h;
}

std::unique_ptr<State> MoonState::Determinize(int seat, Rng& rng) const {
  auto copy = std::make_unique<MoonState>(*this);
  if (terminal_) return copy;
  // Groups: each other hand (never a tile its seat has shown it lacks), the widow while
  // nobody holds it, and the discard when `seat` is not the bidder (any tile: a discard
  // shows nothing).
  std::array<Hand, kSeats + 2> allowed{};
  std::array<int, kSeats + 2> counts{};
  std::array<Hand, kSeats + 2> got{};
  std::array<int, kSeats + 2> owner{};  // seat, or kSeats: widow, kSeats + 1: discard
  int groups = 0;
  Hand pool = 0;
  auto add = [&](int who, Hand tiles, Hand allow) {
    owner[groups] = who;
    allowed[groups] = allow;
    counts[groups] = std::popcount(tiles);
    pool |= tiles;
    ++groups;
  };
  for (int s = 0; s < kSeats; ++s) {
    if (s != seat) add(s, hands_[s], kMoonTiles & ~excluded_[s]);
  }
  if (!widow_taken_) add(kSeats, Bit(deck_[kWidowSlot]), kMoonTiles);
  if (discard_ >= 0 && seat != bidder_) add(kSeats + 1, Bit(discard_), kMoonTiles);
  if (!tricks::DealConstrained(pool, std::span(allowed).first(groups),
                               std::span(counts).first(groups), rng, std::span(got).first(groups))) {
    std::fputs("boneyard: moon determinization found no consistent deal\n", stderr);
    std::abort();
  }
  // Old and new hidden tiles of each seat (a bidder's discard is its own).
  std::array<Hand, kSeats> old_tiles{};
  std::array<Hand, kSeats> new_tiles{};
  Hand new_widow = 0;
  for (int g = 0; g < groups; ++g) {
    const int who = owner[g];
    if (who < kSeats) {
      copy->hands_[who] = got[g];
      old_tiles[who] |= hands_[who];
      new_tiles[who] |= got[g];
    } else if (who == kSeats) {
      new_widow = got[g];
    } else {
      copy->discard_ = static_cast<int8_t>(std::countr_zero(got[g]));
      old_tiles[bidder_] |= Bit(discard_);
      new_tiles[bidder_] |= got[g];
    }
  }
  // Rewrite the deal: in each seat's block (and the widow slot, once the bidder holds the
  // widow) the unplayed tiles are replaced by the new ones.
  for (int s = 0; s < kSeats; ++s) {
    if (s == seat || old_tiles[s] == 0) continue;
    Hand fresh = new_tiles[s];
    auto refill = [&](int i) {
      if (old_tiles[s] & Bit(copy->deck_[i])) {
        copy->deck_[i] = static_cast<uint8_t>(std::countr_zero(fresh));
        fresh &= fresh - 1;
      }
    };
    for (int k = 0; k < kHandSize; ++k) refill(s * kHandSize + k);
    if (s == bidder_ && widow_taken_) refill(kWidowSlot);
  }
  if (!widow_taken_) copy->deck_[kWidowSlot] = static_cast<uint8_t>(std::countr_zero(new_widow));
  return copy;
}

// ----- Notation -----

std::string MoonState::PublicActionToString(Action action) const {
  if (IsDiscard(action)) return "discard";
  return ActionToString(action);
}

std::string MoonState::ActionToString(Action action) const {
  if (IsPlay(action)) return TileName(static_cast<int>(action));
  if (IsDiscard(action)) return absl::StrCat("discard ", TileName(static_cast<int>(action - kDiscardBase)));
  if (action == kPass) return "pass";
  if (IsBid(action)) return BidName(static_cast<int>(action - kBidBase));
  if (action == kTrumpNone) return "trump none";
  if (IsTrump(action)) return absl::StrCat("trump ", action - kTrumpBase);
  return absl::StrCat("?", action);
}

absl::StatusOr<Action> MoonState::ParseAction(absl::string_view text) const {
  const std::string lower = absl::AsciiStrToLower(text);
  const std::vector<absl::string_view> words =
      absl::StrSplit(lower, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
  auto malformed = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "' is not a moon action", why,
        " (write \"pass\", \"bid 4\" ... \"bid 7\", \"bid 21\"; \"trump 4\", \"trump none\"; "
        "\"discard 6-4\"; or a tile \"6-4\")"));
  };
  auto tile = [&](absl::string_view word) -> absl::StatusOr<int> {
    absl::StatusOr<Tile> t = Tile::Parse(word);
    if (!t.ok()) return malformed(absl::StrCat(": ", t.status().message()));
    if (t->hi > 6 || t->copy != 0 || !(kMoonTiles & Bit(tricks::IdOf(*t)))) {
      return malformed(": moon plays the 22 tiles of a double-6 set without blanks but 0-0");
    }
    return tricks::IdOf(*t);
  };
  if (words.empty()) return malformed("");
  if (words.size() == 1) {
    if (words[0] == "pass") return kPass;
    absl::StatusOr<int> id = tile(words[0]);
    if (!id.ok()) return id.status();
    return static_cast<Action>(*id);
  }
  int n = 0;
  if (words.size() == 2 && words[0] == "bid") {
    if (!absl::SimpleAtoi(words[1], &n) || n < 1 || n > 99) {
      return malformed(": a bid is a number of tricks, 4 to 7, or 21");
    }
    return kBidBase + n;
  }
  if (words.size() == 2 && words[0] == "trump") {
    if (words[1] == "none") return kTrumpNone;
    if (absl::SimpleAtoi(words[1], &n) && n >= 0 && n <= 6) return kTrumpBase + n;
    return malformed(": trumps are a pip 0 to 6 or \"none\"");
  }
  if (words.size() == 2 && words[0] == "discard") {
    absl::StatusOr<int> id = tile(words[1]);
    if (!id.ok()) return id.status();
    return kDiscardBase + *id;
  }
  return malformed("");
}

absl::Status MoonState::ExplainIllegal(Action action) const {
  if (IsLegal(action)) return absl::OkStatus();
  auto fail = [](auto&&... parts) { return absl::FailedPreconditionError(absl::StrCat(parts...)); };
  if (terminal_) return fail("the match is over");
  if (phase_ != Phase::kBidding && (action == kPass || IsBid(action))) {
    return fail("the bidding is over: seat ", bidder_, " won it with ", BidName(bid_));
  }
  if (phase_ != Phase::kDeclaring && IsTrump(action)) {
    if (phase_ == Phase::kBidding) return fail("trumps are named after the bidding, by its winner");
    return fail("trumps are already named");
  }
  if (phase_ != Phase::kDiscarding && IsDiscard(action)) {
    return fail(phase_ == Phase::kPlaying ? "the bidder has already discarded"
                                          : "the bidder discards after taking the widow and naming trumps");
  }
  if (phase_ != Phase::kPlaying && IsPlay(action)) {
    return fail(phase_ == Phase::kDiscarding ? "discard first: \"discard <tile>\""
                                             : "no tile is played before the bidding is won and trumps are named");
  }
  if (phase_ == Phase::kBidding) {
    const int n = static_cast<int>(action - kBidBase);
    if (n != kShootTheMoon && (n < 4 || n > 7)) return fail("bids are 4 to 7 tricks, or 21");
    if (bid_ == 7) return fail("after a bid of 7 only 21 (shoot the moon) may follow");
    return fail("a bid must be higher than the highest so far (", BidName(bid_), ")");
  }
  if (phase_ == Phase::kDeclaring) return fail("\"trump none\" needs the rule option no_trump=true");
  if (phase_ == Phase::kDiscarding) {
    return fail(TileName(static_cast<int>(action - kDiscardBase)), " is not in your hand");
  }
  const int tile = static_cast<int>(action);
  if (!(hands_[current_] & Bit(tile))) return fail(TileName(tile), " is not in your hand");
  return tricks::FollowSuitError(rules_, tricks_[num_tricks_], hands_[current_]);
}

// ----- Checks and text -----

absl::Status MoonState::CheckInvariants() const {
  Hand dealt = 0;
  for (uint8_t id : deck_) {
    if (!(kMoonTiles & Bit(id)) || (dealt & Bit(id))) {
      return absl::InternalError("the round's deal is not the 22 tiles once each");
    }
    dealt |= Bit(id);
  }
  Hand seen = 0;
  for (int s = 0; s < kSeats; ++s) {
    if (seen & hands_[s]) return absl::InternalError("a tile is in two hands");
    seen |= hands_[s];
  }
  if (!widow_taken_) {
    if (seen & Bit(deck_[kWidowSlot])) return absl::InternalError("the widow is in a hand");
    seen |= Bit(deck_[kWidowSlot]);
  }
  if (discard_ >= 0) {
    if (seen & Bit(discard_)) return absl::InternalError("the discard is also held");
    seen |= Bit(discard_);
  }
  std::array<int, kSeats> played{};
  std::array<int, kSeats> taken{};
  const int open = phase_ == Phase::kPlaying && !terminal_ ? num_tricks_ + 1 : num_tricks_;
  for (int i = 0; i < open && i < kTricks; ++i) {
    const tricks::Trick& t = tricks_[i];
    for (int k = 0; k < t.size; ++k) {
      if (seen & Bit(t.tiles[k])) return absl::InternalError("a played tile is also held");
      seen |= Bit(t.tiles[k]);
      ++played[t.seats[k]];
      bool from_hand = t.seats[k] == bidder_ && t.tiles[k] == deck_[kWidowSlot];
      for (int j = 0; j < kHandSize; ++j) from_hand |= deck_[t.seats[k] * kHandSize + j] == t.tiles[k];
      if (!from_hand) return absl::InternalError("a seat played a tile it was not dealt");
    }
    if (i < num_tricks_) ++taken[trick_winner_[i]];
  }
  if (seen != kMoonTiles) return absl::InternalError("tiles were lost");
  for (int s = 0; s < kSeats; ++s) {
    const int extra = s == bidder_ && widow_taken_ ? 1 - (discard_ >= 0 ? 1 : 0) : 0;
    if (std::popcount(hands_[s]) + played[s] != kHandSize + extra) {
      return absl::InternalError(absl::StrCat("seat ", s, "'s tiles do not add up"));
    }
    if (taken[s] != tricks_taken_[s]) return absl::InternalError("tricks taken disagree");
  }
  if (terminal_) return absl::OkStatus();
  for (int s = 0; s < kSeats; ++s) {
    if (hands_[s] & excluded_[s]) {
      return absl::InternalError(absl::StrCat("seat ", s, " holds a tile it showed it lacks"));
    }
  }
  if (current_ < 0 || current_ >= kSeats) return absl::InternalError("bad current seat");
  return absl::OkStatus();
}

std::string MoonState::ToString() const {
  std::string out = absl::StrCat("round ", round_ + 1, terminal_ ? " over" : "", " | shaker ", shaker_,
                                 " | seat ", current_, " to act | scores ", scores_[0], " ",
                                 scores_[1], " ", scores_[2]);
  for (int s = 0; s < kSeats; ++s) {
    absl::StrAppend(&out, " | hand ", s, ": ", HandText(hands_[s]), " said ", said_[s], " excl ",
                    excluded_[s], " took ", tricks_taken_[s]);
  }
  absl::StrAppend(&out, " | bidder ", bidder_, " bid ", bid_, " trump ",
                  trump_named_ ? tricks::TrumpName(trump_) : std::string("-"), " widow ",
                  TileName(deck_[kWidowSlot]), widow_taken_ ? " taken" : "", " discard ",
                  discard_ >= 0 ? TileName(discard_) : std::string("-"), " | tricks:");
  for (int i = 0; i <= num_tricks_ && i < kTricks; ++i) {
    const tricks::Trick& t = tricks_[i];
    if (t.empty()) continue;
    absl::StrAppend(&out, " [");
    for (int k = 0; k < t.size; ++k) absl::StrAppend(&out, k ? " " : "", t.seats[k], ":", TileName(t.tiles[k]));
    absl::StrAppend(&out, i < num_tricks_ ? absl::StrCat(" → ", trick_winner_[i]) : "", "]");
  }
  absl::StrAppend(&out, " | dealt:");
  for (uint8_t id : deck_) absl::StrAppend(&out, " ", TileName(id));
  if (has_last_) {
    absl::StrAppend(&out, " | last hand ", last_.round + 1, " bidder ", last_.bidder, " bid ",
                    last_.bid, last_.made ? " made " : " set ", last_.scored[0], "/",
                    last_.scored[1], "/", last_.scored[2]);
  }
  if (terminal_) absl::StrAppend(&out, " | winner ", winner_);
  return out;
}

nlohmann::json MoonState::ResultDetails() const {
  return {{"rounds", round_ + 1},
          {"winner", winner_ >= 0 ? nlohmann::json(winner_) : nlohmann::json(nullptr)}};
}

// ----- Views -----

std::unique_ptr<View> MoonState::ViewFor(int seat) const {
  auto view = std::make_unique<MoonView>();
  view->game = game().name();
  view->seat = seat;
  view->current_seat = CurrentSeat();
  view->round = round_;
  view->terminal = terminal_;
  if (seat >= 0 && seat < kSeats) {
    for (Hand h = hands_[seat]; h; h &= h - 1) view->hand.push_back(tricks::TileOf(std::countr_zero(h)));
  }
  for (int s = 0; s < kSeats; ++s) view->hand_counts.push_back(std::popcount(hands_[s]));
  view->boneyard_count = widow_taken_ ? 0 : 1;
  view->scores = Scores();
  if (!terminal_ && seat == current_) view->legal_actions = LegalActionStrings();
  view->phase = terminal_                      ? MoonView::Phase::kOver
                : phase_ == Phase::kBidding    ? MoonView::Phase::kBidding
                : phase_ == Phase::kDeclaring  ? MoonView::Phase::kDeclaring
                : phase_ == Phase::kDiscarding ? MoonView::Phase::kDiscarding
                                               : MoonView::Phase::kPlaying;
  view->shaker = shaker_;
  for (int i = 0; i < spoken_; ++i) view->bids.push_back({order_[i], said_[order_[i]]});
  view->bidder = bidder_;
  view->bid = bid_;
  view->widow_taken = widow_taken_;
  if (discard_ >= 0 && seat == bidder_) view->discard = tricks::TileOf(discard_);
  view->trump = trump_;
  view->trump_named = trump_named_;
  view->rules = rules_;
  for (int i = 0; i < num_tricks_; ++i) {
    tricks::TrickView t = tricks::MakeTrickView(tricks_[i]);
    t.winner = trick_winner_[i];
    view->tricks.push_back(std::move(t));
  }
  if (phase_ == Phase::kPlaying && num_tricks_ < kTricks) view->trick = tricks::MakeTrickView(tricks_[num_tricks_]);
  for (int s = 0; s < kSeats; ++s) view->tricks_taken[s] = tricks_taken_[s];
  for (int s = 0; s < kSeats; ++s) view->void_suits.push_back(tricks::VoidSuits(voids_[s]));
  if (has_last_) view->last_hand = last_;
  view->target = game_->options().target;
  return view;
}

nlohmann::json MoonView::LayoutJson() const {
  nlohmann::json j;
  j["phase"] = PhaseName(phase);
  j["shaker"] = shaker;
  nlohmann::json bid_list = nlohmann::json::array();
  for (const auto& [s, n] : bids) bid_list.push_back({{"seat", s}, {"bid", BidName(n)}});
  j["bids"] = bid_list;
  j["high_bid"] = bidder != kNobody ? nlohmann::json{{"seat", bidder}, {"bid", BidName(bid)}}
                                    : nlohmann::json(nullptr);
  j["widow_taken"] = widow_taken;
  j["discard"] = discard.has_value() ? nlohmann::json(discard->ToString()) : nlohmann::json(nullptr);
  j["trump"] = trump_named ? nlohmann::json(absl::StrCat("trump ", tricks::TrumpName(trump)))
                           : nlohmann::json(nullptr);
  nlohmann::json done = nlohmann::json::array();
  for (const tricks::TrickView& t : tricks) done.push_back(tricks::TrickJson(t));
  j["tricks"] = done;
  j["trick"] = tricks::TrickJson(trick);
  j["tricks_taken"] = tricks_taken;
  nlohmann::json voids = nlohmann::json::array();
  for (const auto& suits : void_suits) {
    nlohmann::json names = nlohmann::json::array();
    for (int x : suits) names.push_back(tricks::SuitName(x));
    voids.push_back(names);
  }
  j["void_suits"] = voids;
  if (last_hand.has_value()) {
    const MoonHandResult& r = *last_hand;
    j["last_hand"] = {{"round", r.round},
                      {"bidder", r.bidder != kNobody ? nlohmann::json(r.bidder) : nlohmann::json(nullptr)},
                      {"bid", r.bidder != kNobody ? BidName(r.bid) : std::string()},
                      {"trump", r.trump},
                      {"tricks", r.tricks},
                      {"made", r.made},
                      {"scored", r.scored}};
  } else {
    j["last_hand"] = nullptr;
  }
  j["target"] = target;
  return j;
}

std::string MoonView::LayoutText() const {
  std::string out = absl::StrCat(PhaseName(phase), ", shaker seat ", shaker);
  std::vector<std::string> calls;
  for (const auto& [s, n] : bids) calls.push_back(absl::StrCat(s, ": ", BidName(n)));
  absl::StrAppend(&out, "\nbids: ", calls.empty() ? "-" : absl::StrJoin(calls, ", "));
  if (trump_named) absl::StrAppend(&out, "\nseat ", bidder, " bid ", bid, ", trump ", tricks::TrumpName(trump));
  if (discard.has_value()) absl::StrAppend(&out, ", discarded ", discard->ToString());
  for (size_t i = 0; i < tricks.size(); ++i) {
    std::vector<std::string> plays;
    for (size_t k = 0; k < tricks[i].tiles.size(); ++k) {
      plays.push_back(absl::StrCat(tricks[i].seats[k], ":", tricks[i].tiles[k].ToString()));
    }
    absl::StrAppend(&out, "\ntrick ", i + 1, ": ", absl::StrJoin(plays, " "), " → seat ", tricks[i].winner);
  }
  if (!trick.tiles.empty()) {
    std::vector<std::string> plays;
    for (size_t k = 0; k < trick.tiles.size(); ++k) {
      plays.push_back(absl::StrCat(trick.seats[k], ":", trick.tiles[k].ToString()));
    }
    absl::StrAppend(&out, "\ntrick now: ", absl::StrJoin(plays, " "));
  }
  absl::StrAppend(&out, "\ntricks taken: ", absl::StrJoin(tricks_taken, " / "), "   (game to ", target, ")");
  return out;
}

}  // namespace boneyard::moon
