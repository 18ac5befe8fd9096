#include "engine/games/forty_two/forty_two.h"

#include <algorithm>
#include <cstdlib>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace boneyard::forty_two {

using tricks::Bit;
using tricks::Hand;
using tricks::HandText;
using tricks::TileName;

namespace {

// Partners alternate round the table at every size: teams are the even and the odd seats.
constexpr int Team(int seat) { return seat % 2; }

std::vector<std::string> SuitList(uint8_t suits) {
  std::vector<std::string> out;
  for (int s = 0; s < tricks::kNumSuits; ++s) {
    if ((suits >> s) & 1) out.push_back(tricks::SuitName(s));
  }
  return out;
}

const char* PhaseName(FortyTwoView::Phase p) {
  switch (p) {
    case FortyTwoView::Phase::kBidding: return "bidding";
    case FortyTwoView::Phase::kDeclaring: return "declaring";
    case FortyTwoView::Phase::kPlaying: return "playing";
    case FortyTwoView::Phase::kOver: return "over";
  }
  return "";
}

}  // namespace

std::string BidText(Action bid) {
  if (bid == kPass) return "pass";
  if (bid == kPlunge) return "plunge";
  if (bid == kSplash) return "splash";
  if (bid > kMarkBidBase && bid < kPlunge) {
    const int marks = static_cast<int>(bid - kMarkBidBase);
    return absl::StrCat("bid ", marks, marks == 1 ? " mark" : " marks");
  }
  if (bid > kBidBase && bid < kMarkBidBase) return absl::StrCat("bid ", bid - kBidBase);
  return absl::StrCat("?", bid);
}

// ----- Game -----

GameSpec Spec() {
  GameSpec spec;
  spec.name = "forty_two";
  spec.title = "Forty-Two";
  spec.summary =
      "Texas partnership trick-taking: bid 30-42, name trumps, take tricks and count "
      "dominoes; first team to 250 (or 7 marks) wins.";
  spec.min_seats = kSeats;
  spec.max_seats = kSeats;
  spec.default_bot = "heuristic";
  spec.options = {
      OptionSpec::Choice("scoring", "points", {"points", "marks"},
                         "points: game to `target`; marks: one mark per hand won, first to "
                         "`marks_target`"),
      OptionSpec::Int("target", 250, 42, 1000, "points that win the game (scoring=points)"),
      OptionSpec::Int("marks_target", 7, 1, 21, "marks that win the game (scoring=marks)"),
      OptionSpec::Bool("shaker_must_bid", false,
                       "when the first three pass, the shaker must bid (no reshuffle)"),
      OptionSpec::Bool("mark_bidding", false,
                       "\"bid 1 mark\" (= 42) replaces \"bid 42\"; open at most 2 marks, then "
                       "raise one mark at a time"),
      OptionSpec::Bool("doubles_trump", false, "\"trump doubles\": the doubles form the trump suit"),
      OptionSpec::Bool("follow_me", false, "\"trump none\": play a hand without trumps"),
      OptionSpec::Bool("nello", false,
                       "after a bid of 42 or more, \"nello\": the bidder plays alone to lose "
                       "every trick"),
      OptionSpec::Choice("nello_doubles", "high", {"high", "low", "own"},
                         "in nello the double is the highest of its suit, the lowest, or the "
                         "doubles form a suit of their own"),
      OptionSpec::Bool("sevens", false,
                       "after a bid of 42 or more, \"sevens\": the tile closest to 7 pips wins "
                       "each trick; the bidders need every trick"),
      OptionSpec::Bool("plunge", false,
                       "with 4+ doubles bid \"plunge\" (4 marks): partner names trumps, the "
                       "bidders need every trick"),
      OptionSpec::Bool("splash", false,
                       "with 3+ doubles bid \"splash\" (2 marks): partner names trumps, the "
                       "bidders need every trick"),
  };
  spec.presets = {
      Preset{"standard", "the rule sheets: bids 30-42, game to 250", {}},
      Preset{"marks", "one mark per hand won, first to 7 marks",
             {{"scoring", std::string("marks")}}},
      Preset{"texas",
             "marks, mark bidding and every common variant",
             {{"scoring", std::string("marks")},
              {"mark_bidding", true},
              {"doubles_trump", true},
              {"follow_me", true},
              {"nello", true},
              {"sevens", true},
              {"plunge", true},
              {"splash", true}}},
  };
  spec.factory = [](const Rules& rules) -> absl::StatusOr<std::shared_ptr<const Game>> {
    Options o;
    o.scoring = rules.GetString("scoring") == "marks" ? Scoring::kMarks : Scoring::kPoints;
    o.target = static_cast<int>(rules.GetInt("target"));
    o.marks_target = static_cast<int>(rules.GetInt("marks_target"));
    o.shaker_must_bid = rules.GetBool("shaker_must_bid");
    o.mark_bidding = rules.GetBool("mark_bidding");
    o.doubles_trump = rules.GetBool("doubles_trump");
    o.follow_me = rules.GetBool("follow_me");
    o.nello = rules.GetBool("nello");
    const std::string& nd = rules.GetString("nello_doubles");
    o.nello_doubles = nd == "low"   ? tricks::DoublesRank::kLow
                      : nd == "own" ? tricks::DoublesRank::kOwnSuit
                                    : tricks::DoublesRank::kHigh;
    o.sevens = rules.GetBool("sevens");
    o.plunge = rules.GetBool("plunge");
    o.splash = rules.GetBool("splash");
    return std::make_shared<FortyTwoGame>(rules, o);
  };
  return spec;
}

namespace {

Teams AlternateTeams(int seats) {
  Teams teams(2);
  for (int s = 0; s < seats; ++s) teams[Team(s)].push_back(s);
  return teams;
}

}  // namespace

FortyTwoGame::FortyTwoGame(Rules rules, Options options, std::string name, Table table)
    : Game(std::move(name), std::move(rules), table.seats, AlternateTeams(table.seats),
           *TileSet::DoubleN(6, table.num_tiles / tricks::kSetTiles), ScoreOrder::kHigherWins),
      options_(options),
      table_(table) {}

absl::Status FortyTwoGame::ValidateDeal(int round, const Deal& deal) const {
  if (absl::Status s = CheckDealTiles(round, deal, tile_set().AllTiles(),
                                      std::vector<int>(table_.seats, table_.hand_size));
      !s.ok()) {
    return s;
  }
  const int left_out = table_.num_tiles - table_.seats * table_.hand_size;
  if (static_cast<int>(deal.boneyard.size()) != left_out) {
    return absl::InvalidArgumentError(absl::StrCat("round ", round + 1, " deal: ", left_out,
                                                   " tiles are left out, not ",
                                                   deal.boneyard.size()));
  }
  return absl::OkStatus();
}

std::unique_ptr<State> FortyTwoGame::MakeState(uint64_t seed,
                                               std::shared_ptr<const std::vector<Deal>> deals) const {
  return std::make_unique<FortyTwoState>(shared_from_this(), seed, std::move(deals));
}

// ----- State: dealing and bidding -----

FortyTwoState::FortyTwoState(std::shared_ptr<const Game> game, uint64_t seed,
                             std::shared_ptr<const std::vector<Deal>> deals)
    : State(std::move(game)),
      game_(static_cast<const FortyTwoGame*>(&this->game())),
      deals_(std::move(deals)),
      seed_(seed) {
  StartRound(0);
}

void FortyTwoState::StartRound(int round) {
  round_ = round;
  const Table& t = table();
  shaker_ = static_cast<int8_t>(round % t.seats);
  if (round < static_cast<int>(deals_->size())) {
    const Deal& deal = (*deals_)[round];
    int i = 0;
    for (const auto& hand : deal.hands) {
      for (const Tile& tile : hand) deck_[i++] = static_cast<uint8_t>(tricks::IdOf(tile));
    }
    for (const Tile& tile : deal.boneyard) deck_[i++] = static_cast<uint8_t>(tricks::IdOf(tile));
  } else {
    for (int i = 0; i < t.num_tiles; ++i) deck_[i] = static_cast<uint8_t>(i);
    Rng rng(DeriveSeed(seed_, static_cast<uint64_t>(round)));
    rng.Shuffle(deck_.data(), t.num_tiles);
  }
  hands_ = {};
  for (int s = 0; s < t.seats; ++s) {
    for (int k = 0; k < t.hand_size; ++k) hands_[s] |= Bit(deck_[s * t.hand_size + k]);
  }
  excluded_ = {};
  voids_ = {};
  tricks_ = {};
  trick_winner_ = {};
  taken_ = {};
  num_tricks_ = 0;
  bidding_ = tricks::BiddingRound((shaker_ + 1) % t.seats, t.seats);
  calls_ = {};
  bid_action_ = kPass;
  contract_action_ = kPass;
  bid_value_ = 0;
  bid_marks_ = 0;
  bidder_ = declarer_ = sitting_out_ = kNobody;
  contract_ = Contract::kNone;
  rules_ = tricks::TrickRules();
  phase_ = Phase::kBidding;
  current_ = static_cast<int8_t>(bidding_.current());
}

int FortyTwoState::HighMarks() const {
  return bidding_.has_bid() ? bidding_.high_value() / table().hand_points : 0;
}

int FortyTwoState::BidValue(Action bid) const {
  const int mark = table().hand_points;
  if (bid == kPlunge) return mark * std::max(4, HighMarks() + 1);
  if (bid == kSplash) return mark * std::max(2, HighMarks() + 1);
  if (IsMarkBid(bid)) return mark * static_cast<int>(bid - kMarkBidBase);
  return static_cast<int>(bid - kBidBase);
}

void FortyTwoState::BidActions(ActionList& out) const {
  const Options& o = opts();
  const int high = bidding_.has_bid() ? bidding_.high_value() : 0;
  const bool forced = o.shaker_must_bid && bidding_.is_last() && !bidding_.has_bid();
  if (!forced) out.push_back(kPass);
  const int mark = table().hand_points;
  const int top = o.mark_bidding ? mark - 1 : mark;
  for (int n = std::max(table().min_bid, high + 1); n <= top; ++n) out.push_back(kBidBase + n);
  if (o.mark_bidding) {
    // Open at one or two marks; once two or more are bid, raise one mark at a time.
    const int max_marks = high >= 2 * mark ? high / mark + 1 : 2;
    for (int m = 1; m <= max_marks; ++m) {
      if (m * mark > high) out.push_back(kMarkBidBase + m);
    }
  }
  const int doubles = Doubles(current_);
  if (o.plunge && doubles >= 4) out.push_back(kPlunge);
  if (o.splash && doubles >= 3) out.push_back(kSplash);
}

void FortyTwoState::ContractActions(ActionList& out) const {
  const Options& o = opts();
  for (int pip = 0; pip < tricks::kPipSuits; ++pip) out.push_back(kTrumpBase + pip);
  if (o.doubles_trump) out.push_back(kTrumpDoublesAction);
  if (o.follow_me) out.push_back(kTrumpNoneAction);
  const bool special_bid = bid_action_ == kPlunge || bid_action_ == kSplash;
  if (!special_bid && bid_value_ >= table().hand_points) {
    if (o.nello) out.push_back(kNello);
    if (o.sevens) out.push_back(kSevens);
  }
}

void FortyTwoState::LegalActions(ActionList& out) const {
  if (terminal_) return;
  switch (phase_) {
    case Phase::kBidding:
      BidActions(out);
      return;
    case Phase::kDeclaring:
      ContractActions(out);
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

void FortyTwoState::Apply(Action action) {
  switch (phase_) {
    case Phase::kBidding: ApplyBid(action); return;
    case Phase::kDeclaring: ApplyContract(action); return;
    case Phase::kPlaying: ApplyPlay(static_cast<int>(action)); return;
  }
}

void FortyTwoState::ApplyBid(Action action) {
  calls_[current_] = static_cast<uint16_t>(action);
  if (action == kPass) {
    bidding_.Pass();
  } else {
    bidding_.Bid(BidValue(action));
    bid_action_ = action;
  }
  if (!bidding_.done()) {
    current_ = static_cast<int8_t>(bidding_.current());
    return;
  }
  if (!bidding_.has_bid()) {
    EndHand();  // all passed: the next shaker reshuffles
    return;
  }
  bidder_ = static_cast<int8_t>(bidding_.high_seat());
  bid_value_ = static_cast<int16_t>(bidding_.high_value());
  bid_marks_ = static_cast<int8_t>(std::max(1, bid_value_ / table().hand_points));
  // Plunge and splash: the partner names trumps and leads.
  declarer_ = static_cast<int8_t>(bid_action_ == kPlunge || bid_action_ == kSplash
                                      ? Partner(bidder_)
                                      : bidder_);
  phase_ = Phase::kDeclaring;
  current_ = declarer_;
}

void FortyTwoState::ApplyContract(Action action) {
  contract_action_ = action;
  int leader = declarer_;
  if (action == kNello) {
    contract_ = Contract::kNello;
    rules_ = tricks::TrickRules(tricks::kNoTrump, opts().nello_doubles, false, table().num_tiles);
    sitting_out_ = static_cast<int8_t>(Partner(bidder_));
  } else if (action == kSevens) {
    contract_ = Contract::kSevens;
    rules_ = tricks::TrickRules(tricks::kNoTrump, tricks::DoublesRank::kHigh, true, table().num_tiles);
  } else {
    contract_ = Contract::kTrumps;
    const int trump = action == kTrumpDoublesAction ? tricks::kTrumpDoubles
                      : action == kTrumpNoneAction  ? tricks::kNoTrump
                                                    : static_cast<int>(action - kTrumpBase);
    rules_ = tricks::TrickRules(trump, tricks::DoublesRank::kHigh, false, table().num_tiles);
  }
  phase_ = Phase::kPlaying;
  current_ = static_cast<int8_t>(leader);
}

int FortyTwoState::NextInPlay(int seat) const {
  int next = (seat + 1) % seats();
  if (next == sitting_out_) next = (next + 1) % seats();
  return next;
}

int FortyTwoState::TrickPoints(int i) const {
  Hand tiles = tricks_[i].TileMask();
  // The tiles left out (Eighty-Four with 6) count for the last trick, so a hand is worth 84.
  if (i == table().hand_size - 1 && opts().left_out_to_last_trick) tiles |= LeftOut();
  return table().trick_points +
         table().double_points * std::popcount(tiles & tricks::kDoubleTiles) +
         tricks::CountPoints(tiles);
}

// ----- State: play and scoring -----

void FortyTwoState::ApplyPlay(int tile) {
  tricks::Trick& trick = tricks_[num_tricks_];
  if (rules_.sevens()) {
    // Every tile nearer to seven than the one played is shown not to be in this hand.
    const int d = std::abs(tricks::TilePips(tile) - 7);
    for (int id = 0; id < table().num_tiles; ++id) {
      if (std::abs(tricks::TilePips(id) - 7) < d) excluded_[current_] |= Bit(id);
    }
  } else {
    tricks::NoteVoid(rules_, trick, tile, voids_[current_], excluded_[current_]);
  }
  hands_[current_] &= ~Bit(tile);
  trick.Add(current_, tile);
  const int players = sitting_out_ >= 0 ? seats() - 1 : seats();
  if (trick.size == players) {
    FinishTrick();
  } else {
    current_ = static_cast<int8_t>(NextInPlay(current_));
  }
}

void FortyTwoState::FinishTrick() {
  const tricks::Trick& trick = tricks_[num_tricks_];
  const int winner = trick.seats[tricks::WinningIndex(trick, rules_)];
  taken_[Team(winner)] = static_cast<int16_t>(taken_[Team(winner)] + TrickPoints(num_tricks_));
  trick_winner_[num_tricks_] = static_cast<int8_t>(winner);
  ++num_tricks_;
  if (num_tricks_ == table().hand_size) {
    EndHand();
  } else {
    current_ = static_cast<int8_t>(winner);
  }
}

HandResult FortyTwoState::MakeResult() const {
  HandResult r;
  r.round = round_;
  r.bidder = bidder_;
  if (bidder_ < 0) return r;
  r.bid = BidText(bid_action_);
  r.contract = ActionToString(contract_action_);
  r.taken = {taken_[0], taken_[1]};
  const int bt = Team(bidder_);
  int bidder_tricks = 0;
  for (int i = 0; i < num_tricks_; ++i) bidder_tricks += Team(trick_winner_[i]) == bt ? 1 : 0;
  const bool all_or_nothing = contract_ != Contract::kTrumps || bid_action_ == kPlunge ||
                              bid_action_ == kSplash;
  if (contract_ == Contract::kNello) {
    r.made = bidder_tricks == 0;
  } else if (all_or_nothing) {
    r.made = bidder_tricks == table().hand_size;
  } else {
    // Bids of 42 or more (marks) need everything: 42 points.
    r.made = taken_[bt] >= std::min<int>(bid_value_, table().hand_points);
  }
  if (opts().scoring == Scoring::kMarks) {
    r.scored[r.made ? bt : 1 - bt] = bid_marks_;
    return r;
  }
  const int ot = 1 - bt;
  if (r.made) {
    r.scored[bt] = std::max<int>(taken_[bt], bid_value_);
    r.scored[ot] = all_or_nothing ? 0 : taken_[ot];
  } else {
    r.scored[ot] = bid_value_ + (all_or_nothing ? 0 : taken_[ot]);
  }
  return r;
}

void FortyTwoState::EndHand() {
  last_ = MakeResult();
  has_last_ = true;
  if (bidder_ >= 0) {
    auto& totals = opts().scoring == Scoring::kMarks ? marks_ : scores_;
    const int goal = opts().scoring == Scoring::kMarks ? opts().marks_target : opts().target;
    totals[0] += last_.scored[0];
    totals[1] += last_.scored[1];
    const bool reached0 = totals[0] >= goal;
    const bool reached1 = totals[1] >= goal;
    if (reached0 || reached1) {
      terminal_ = true;
      // Both past the goal on one hand: the bidding team wins, whatever the scores.
      winner_team_ = static_cast<int8_t>(reached0 && reached1 ? Team(bidder_) : (reached0 ? 0 : 1));
      current_ = kNobody;
      return;
    }
  }
  StartRound(round_ + 1);
}

std::vector<int> FortyTwoState::Scores() const {
  const auto& totals = opts().scoring == Scoring::kMarks ? marks_ : scores_;
  std::vector<int> out(seats());
  for (int s = 0; s < seats(); ++s) out[s] = totals[Team(s)];
  return out;
}

std::vector<int> FortyTwoState::Ranks() const {
  if (!terminal_) return State::Ranks();
  std::vector<int> ranks(seats());
  for (int s = 0; s < seats(); ++s) ranks[s] = Team(s) == winner_team_ ? 1 : 2;
  return ranks;
}

Deal FortyTwoState::CurrentDeal() const {
  Deal deal;
  const Table& t = table();
  deal.hands.resize(t.seats);
  for (int s = 0; s < t.seats; ++s) {
    for (int k = 0; k < t.hand_size; ++k) {
      deal.hands[s].push_back(tricks::TileOf(deck_[s * t.hand_size + k]));
    }
  }
  for (int i = t.seats * t.hand_size; i < t.num_tiles; ++i) {
    deal.boneyard.push_back(tricks::TileOf(deck_[i]));
  }
  return deal;
}

std::unique_ptr<State> FortyTwoState::Clone() const {
  return std::make_unique<FortyTwoState>(*this);
}

// ----- Views -----

namespace {

std::string TrickText(const TrickView& t) {
  std::vector<std::string> plays;
  for (size_t i = 0; i < t.tiles.size(); ++i) {
    plays.push_back(absl::StrCat(t.seats[i], ":", t.tiles[i].ToString()));
  }
  std::string out = absl::StrJoin(plays, " ");
  if (t.winner != kNobody) absl::StrAppend(&out, " → seat ", t.winner, " (", t.points.value_or(0), ")");
  return out;
}

}  // namespace

std::unique_ptr<View> FortyTwoState::ViewFor(int seat) const {
  auto view = std::make_unique<FortyTwoView>();
  view->game = game().name();
  view->seat = seat;
  view->current_seat = CurrentSeat();
  view->round = round_;
  view->terminal = terminal_;
  if (seat >= 0 && seat < seats()) {
    for (Hand h = hands_[seat]; h; h &= h - 1) view->hand.push_back(tricks::TileOf(std::countr_zero(h)));
  }
  for (int s = 0; s < seats(); ++s) view->hand_counts.push_back(std::popcount(hands_[s]));
  view->boneyard_count = table().num_tiles - seats() * table().hand_size;
  view->scores = Scores();
  if (!terminal_ && seat == current_) view->legal_actions = LegalActionStrings();
  view->phase = terminal_                     ? FortyTwoView::Phase::kOver
                : phase_ == Phase::kBidding   ? FortyTwoView::Phase::kBidding
                : phase_ == Phase::kDeclaring ? FortyTwoView::Phase::kDeclaring
                                              : FortyTwoView::Phase::kPlaying;
  view->shaker = shaker_;
  // The hand in progress (after the last hand of a match: that hand, as it ended).
  for (int i = 0; i < bidding_.turns_taken(); ++i) {
    const int s = bidding_.speaker(i);
    view->bids.push_back({s, calls_[s]});
  }
  view->high_bidder = bidding_.high_seat();
  view->high_bid = bidding_.has_bid() ? bid_action_ : kPass;
  view->declarer = declarer_;
  view->contract = contract_action_;
  view->sitting_out = sitting_out_;
  view->rules = rules_;
  for (int i = 0; i < num_tricks_; ++i) {
    TrickView t = tricks::MakeTrickView(tricks_[i]);
    t.winner = trick_winner_[i];
    t.points = TrickPoints(i);
    view->tricks.push_back(std::move(t));
  }
  if (phase_ == Phase::kPlaying && num_tricks_ < table().hand_size) {
    view->trick = tricks::MakeTrickView(tricks_[num_tricks_]);
  }
  view->taken = {taken_[0], taken_[1]};
  view->team_scores = {scores_[0], scores_[1]};
  view->marks = {marks_[0], marks_[1]};
  for (int s = 0; s < seats(); ++s) view->void_suits.push_back(tricks::VoidSuits(voids_[s]));
  if (has_last_) view->last_hand = last_;
  view->options = opts();
  view->table = table();
  return view;
}

nlohmann::json FortyTwoView::LayoutJson() const {
  nlohmann::json j;
  j["phase"] = PhaseName(phase);
  j["shaker"] = shaker;
  nlohmann::json bid_list = nlohmann::json::array();
  for (const auto& [s, a] : bids) bid_list.push_back({{"seat", s}, {"bid", BidText(a)}});
  j["bids"] = bid_list;
  j["high_bid"] = high_bidder != kNobody
                      ? nlohmann::json{{"seat", high_bidder}, {"bid", BidText(high_bid)}}
                      : nlohmann::json(nullptr);
  j["declarer"] = declarer != kNobody ? nlohmann::json(declarer) : nlohmann::json(nullptr);
  j["contract"] = nullptr;
  if (contract != kPass) {
    if (contract == kNello) {
      j["contract"] = "nello";
    } else if (contract == kSevens) {
      j["contract"] = "sevens";
    } else {
      j["contract"] = absl::StrCat("trump ", tricks::TrumpName(rules.trump()));
    }
  }
  j["sitting_out"] = sitting_out != kNobody ? nlohmann::json(sitting_out) : nlohmann::json(nullptr);
  nlohmann::json done = nlohmann::json::array();
  for (const TrickView& t : tricks) done.push_back(tricks::TrickJson(t));
  j["tricks"] = done;
  j["trick"] = tricks::TrickJson(trick);
  j["taken"] = taken;
  j["team_scores"] = team_scores;
  j["marks"] = marks;
  nlohmann::json voids = nlohmann::json::array();
  for (const auto& suits : void_suits) {
    nlohmann::json names = nlohmann::json::array();
    for (int x : suits) names.push_back(tricks::SuitName(x));
    voids.push_back(names);
  }
  j["void_suits"] = voids;
  if (last_hand.has_value()) {
    const HandResult& r = *last_hand;
    j["last_hand"] = {{"round", r.round},
                      {"bidder", r.bidder != kNobody ? nlohmann::json(r.bidder) : nlohmann::json(nullptr)},
                      {"bid", r.bid},
                      {"contract", r.contract},
                      {"taken", r.taken},
                      {"made", r.made},
                      {"scored", r.scored}};
  } else {
    j["last_hand"] = nullptr;
  }
  j["scoring"] = options.scoring == Scoring::kMarks ? "marks" : "points";
  j["target"] = options.scoring == Scoring::kMarks ? options.marks_target : options.target;
  return j;
}

std::string FortyTwoView::LayoutText() const {
  std::string out = absl::StrCat(PhaseName(phase), ", shaker seat ", shaker);
  std::vector<std::string> calls;
  for (const auto& [s, a] : bids) calls.push_back(absl::StrCat(s, ": ", BidText(a)));
  absl::StrAppend(&out, "\nbids: ", calls.empty() ? "-" : absl::StrJoin(calls, ", "));
  if (contract != kPass) {
    absl::StrAppend(&out, "\ncontract: seat ", declarer, " named ",
                    contract == kNello    ? std::string("nello")
                    : contract == kSevens ? std::string("sevens")
                                          : absl::StrCat("trump ", tricks::TrumpName(rules.trump())));
    if (sitting_out != kNobody) absl::StrAppend(&out, " (seat ", sitting_out, " sits out)");
  }
  for (size_t i = 0; i < tricks.size(); ++i) {
    absl::StrAppend(&out, "\ntrick ", i + 1, ": ", TrickText(tricks[i]));
  }
  if (!trick.tiles.empty()) absl::StrAppend(&out, "\ntrick now: ", TrickText(trick));
  absl::StrAppend(&out, "\ntaken this hand: ", taken[0], " / ", taken[1],
                  options.scoring == Scoring::kMarks
                      ? absl::StrCat("   marks: ", marks[0], " / ", marks[1], " (to ",
                                     options.marks_target, ")")
                      : absl::StrCat("   game: ", team_scores[0], " / ", team_scores[1], " (to ",
                                     options.target, ")"));
  if (last_hand.has_value() && last_hand->bidder != kNobody) {
    absl::StrAppend(&out, "\nlast hand: seat ", last_hand->bidder, " ", last_hand->bid, ", ",
                    last_hand->contract, ", took ", last_hand->taken[0], "/", last_hand->taken[1],
                    last_hand->made ? ", made" : ", set", ", scored ", last_hand->scored[0], "/",
                    last_hand->scored[1]);
  }
  return out;
}

Hand FortyTwoState::LeftOut() const {
  Hand out = 0;
  for (int i = seats() * table().hand_size; i < table().num_tiles; ++i) out |= Bit(deck_[i]);
  return out;
}

TileMask FortyTwoState::HiddenFrom(int seat) const {
  TileMask mask;
  Hand hidden = LeftOut();
  for (int s = 0; s < seats(); ++s) {
    if (s != seat) hidden |= hands_[s];
  }
  for (Hand h = hidden; h; h &= h - 1) mask.Set(std::countr_zero(h));
  return mask;
}

// ----- Determinization -----

int FortyTwoState::DoublesStillHeld(int seat) const {
  // Bidding plunge (splash) showed four (three) doubles in hand.
  const int shown = calls_[seat] == kPlunge ? 4 : calls_[seat] == kSplash ? 3 : 0;
  if (shown == 0) return 0;
  int played = 0;
  for (const tricks::Trick& t : tricks_) {
    for (int k = 0; k < t.size; ++k) {
      played += t.seats[k] == seat && tricks::TileIsDouble(t.tiles[k]) ? 1 : 0;
    }
  }
  return std::max(0, shown - played);
}

std::unique_ptr<State> FortyTwoState::Determinize(int seat, Rng& rng) const {
  auto copy = std::make_unique<FortyTwoState>(*this);
  if (terminal_) return copy;
  // One group per hidden hand; a seat that bid plunge or splash gets two: the doubles it must
  // still hold, and the rest of its hand. The tiles left out (Eighty-Four with 6) are a group
  // of their own (group_seat -1).
  const Table& t = table();
  const Hand all = tricks::AllTiles(t.num_tiles);
  constexpr int kMaxGroups = 2 * kMaxSeats + 1;
  std::array<Hand, kMaxGroups> allowed{};
  std::array<int, kMaxGroups> counts{};
  std::array<int, kMaxGroups> group_seat{};
  std::array<Hand, kMaxGroups> got{};
  Hand pool = LeftOut();
  int groups = 0;
  if (pool != 0) {
    group_seat[groups] = -1;
    allowed[groups] = all;
    counts[groups] = std::popcount(pool);
    ++groups;
  }
  for (int s = 0; s < t.seats; ++s) {
    if (s == seat) continue;
    pool |= hands_[s];
    const int doubles = DoublesStillHeld(s);
    if (doubles > 0) {
      group_seat[groups] = s;
      allowed[groups] = ~excluded_[s] & tricks::kDoubleTiles;
      counts[groups] = doubles;
      ++groups;
    }
    group_seat[groups] = s;
    allowed[groups] = ~excluded_[s] & all;
    counts[groups] = std::popcount(hands_[s]) - doubles;
    ++groups;
  }
  if (!tricks::DealConstrained(pool, std::span(allowed).first(groups),
                               std::span(counts).first(groups), rng,
                               std::span(got).first(groups))) {
    // Unreachable while the state is consistent: the true hands are one such deal.
    std::fputs("boneyard: forty_two determinization found no consistent deal\n", stderr);
    std::abort();
  }
  Hand left_out = 0;
  for (int s = 0; s < t.seats; ++s) {
    if (s != seat) copy->hands_[s] = 0;
  }
  for (int g = 0; g < groups; ++g) {
    (group_seat[g] < 0 ? left_out : copy->hands_[group_seat[g]]) |= got[g];
  }
  // The dealt blocks keep the tiles played; the places of the unplayed ones get the new.
  auto refill = [&](int from, int to, Hand old_tiles, Hand fresh) {
    for (int i = from; i < to; ++i) {
      uint8_t& id = copy->deck_[i];
      if (old_tiles & Bit(id)) {
        id = static_cast<uint8_t>(std::countr_zero(fresh));
        fresh &= fresh - 1;
      }
    }
  };
  for (int s = 0; s < t.seats; ++s) {
    if (s != seat) refill(s * t.hand_size, (s + 1) * t.hand_size, hands_[s], copy->hands_[s]);
  }
  refill(t.seats * t.hand_size, t.num_tiles, LeftOut(), left_out);
  return copy;
}

// ----- Notation -----

std::string FortyTwoState::ActionToString(Action action) const {
  if (IsPlay(action)) return TileName(static_cast<int>(action));
  if (action >= kTrumpBase && action < kTrumpBase + tricks::kPipSuits) {
    return absl::StrCat("trump ", action - kTrumpBase);
  }
  switch (action) {
    case kTrumpDoublesAction: return "trump doubles";
    case kTrumpNoneAction: return "trump none";
    case kNello: return "nello";
    case kSevens: return "sevens";
    default: return BidText(action);
  }
}

absl::StatusOr<Action> FortyTwoState::ParseAction(absl::string_view text) const {
  const std::string lower = absl::AsciiStrToLower(text);
  const std::vector<absl::string_view> words =
      absl::StrSplit(lower, absl::ByAnyChar(" \t\r\n"), absl::SkipEmpty());
  auto malformed = [&](absl::string_view why) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "' is not a ", game().name(), " action", why,
        " (write \"bid 31\", \"bid 1 mark\", \"pass\", \"plunge\", \"splash\"; \"trump 4\", "
        "\"trump doubles\", \"trump none\", \"nello\", \"sevens\"; or a tile \"6-4\")"));
  };
  if (words.empty()) return malformed("");
  if (words.size() == 1) {
    if (words[0] == "pass") return kPass;
    if (words[0] == "plunge") return kPlunge;
    if (words[0] == "splash") return kSplash;
    if (words[0] == "nello") return kNello;
    if (words[0] == "sevens") return kSevens;
    absl::StatusOr<Tile> tile = Tile::Parse(words[0]);
    if (!tile.ok()) return malformed(absl::StrCat(": ", tile.status().message()));
    if (!game().tile_set().Contains(*tile)) {
      return malformed(table().num_tiles > tricks::kSetTiles
                           ? ": the tiles are two double-6 sets, the second written 6-4'"
                           : ": the tiles are one double-6 set");
    }
    return static_cast<Action>(tricks::IdOf(*tile));
  }
  int n = 0;
  if (words[0] == "bid" && (words.size() == 2 || words.size() == 3) &&
      absl::SimpleAtoi(words[1], &n)) {
    if (words.size() == 2) {
      if (n < 1 || n > 99) return malformed(": a bid is a number of points, 30 to 42");
      return kBidBase + n;
    }
    if (words[2] != (n == 1 ? "mark" : "marks") || n < 1 || n >= static_cast<int>(kPlunge - kMarkBidBase)) {
      return malformed(": write \"bid 1 mark\", \"bid 2 marks\", ...");
    }
    return kMarkBidBase + n;
  }
  if (words[0] == "trump" && words.size() == 2) {
    if (words[1] == "doubles") return kTrumpDoublesAction;
    if (words[1] == "none") return kTrumpNoneAction;
    if (absl::SimpleAtoi(words[1], &n) && n >= 0 && n <= 6) return kTrumpBase + n;
    return malformed(": trumps are a pip 0 to 6, \"doubles\" or \"none\"");
  }
  return malformed("");
}

// ----- Explaining illegal moves -----

absl::Status FortyTwoState::ExplainIllegal(Action action) const {
  if (IsLegal(action)) return absl::OkStatus();
  auto fail = [](auto&&... parts) {
    return absl::FailedPreconditionError(absl::StrCat(parts...));
  };
  if (terminal_) return fail("the match is over");
  const Options& o = opts();
  const bool is_bid_word = action == kPass || (action > kBidBase && action < kTrumpBase);
  if (phase_ != Phase::kBidding && is_bid_word) {
    return fail("the bidding is over: seat ", bidder_, " won it with ", BidText(bid_action_));
  }
  if (phase_ != Phase::kDeclaring && IsContract(action)) {
    if (phase_ == Phase::kBidding) return fail("trumps are named after the bidding, by its winner");
    return fail("the contract is already named: ", ActionToString(contract_action_));
  }
  if (phase_ != Phase::kPlaying && IsPlay(action)) {
    return fail("no tile is played before the bidding is won and trumps are named");
  }
  if (phase_ == Phase::kBidding) {
    const int high = bidding_.has_bid() ? bidding_.high_value() : 0;
    if (action == kPass) {
      return fail("the shaker must bid when everyone else has passed (shaker_must_bid)");
    }
    if (action == kPlunge || action == kSplash) {
      const bool plunge = action == kPlunge;
      if (!(plunge ? o.plunge : o.splash)) {
        return fail("\"", BidText(action), "\" needs the rule option ", BidText(action), "=true");
      }
      return fail(BidText(action), " needs at least ", plunge ? 4 : 3,
                  " doubles in hand; you hold ", Doubles(current_));
    }
    if (IsMarkBid(action)) {
      if (!o.mark_bidding) {
        return fail("mark bids need the rule option mark_bidding=true; bid points, 30 to 42");
      }
      if (BidValue(action) <= high) {
        return fail("a bid must be higher than the highest so far (", BidText(bid_action_), ")");
      }
      return fail("the opening mark bid is at most 2 marks; after that each bid raises by "
                  "exactly one mark");
    }
    const int n = static_cast<int>(action - kBidBase);
    const Table& t = table();
    if (n < t.min_bid || n > t.hand_points) {
      return fail("bids go from ", t.min_bid, " to ", t.hand_points);
    }
    if (n == t.hand_points && o.mark_bidding) {
      return fail("with mark bidding, ", t.hand_points, " is bid as \"bid 1 mark\"");
    }
    return fail("a bid must be higher than the highest so far (", BidText(bid_action_), ")");
  }
  if (phase_ == Phase::kDeclaring) {
    if (action == kTrumpDoublesAction) return fail("\"trump doubles\" needs the rule option doubles_trump=true");
    if (action == kTrumpNoneAction) return fail("\"trump none\" (follow-me) needs the rule option follow_me=true");
    const char* name = action == kNello ? "nello" : "sevens";
    if (!(action == kNello ? o.nello : o.sevens)) {
      return fail("\"", name, "\" needs the rule option ", name, "=true");
    }
    if (bid_action_ == kPlunge || bid_action_ == kSplash) {
      return fail("after ", BidText(bid_action_), " the partner names trumps: a suit, not ", name);
    }
    return fail(name, " may be called only after a bid of 42 (1 mark) or more; the bid was ",
                BidText(bid_action_));
  }
  // Playing.
  const int tile = static_cast<int>(action);
  if (!(hands_[current_] & Bit(tile))) return fail(TileName(tile), " is not in your hand");
  const tricks::Trick& trick = tricks_[num_tricks_];
  if (rules_.sevens()) {
    return fail("in sevens you must play a tile closest to 7 pips: ",
                HandText(rules_.LegalPlays(hands_[current_], -1)));
  }
  return tricks::FollowSuitError(rules_, trick, hands_[current_]);
}

// ----- Checks and text -----

absl::Status FortyTwoState::CheckInvariants() const {
  const Table& tab = table();
  const int hand_size = tab.hand_size;
  Hand dealt = 0;
  for (int i = 0; i < tab.num_tiles; ++i) {
    const int id = deck_[i];
    if (id >= tab.num_tiles || (dealt & Bit(id))) {
      return absl::InternalError("the round's deal is not the set's tiles once each");
    }
    dealt |= Bit(id);
  }
  Hand seen = LeftOut();
  std::array<int, kMaxSeats> played{};
  for (int s = 0; s < tab.seats; ++s) {
    if (seen & hands_[s]) return absl::InternalError("a tile is in two hands");
    seen |= hands_[s];
  }
  std::array<int, 2> taken{};
  const int open = terminal_ || phase_ != Phase::kPlaying ? num_tricks_ : num_tricks_ + 1;
  for (int i = 0; i < open && i < hand_size; ++i) {
    const tricks::Trick& t = tricks_[i];
    for (int k = 0; k < t.size; ++k) {
      if (seen & Bit(t.tiles[k])) return absl::InternalError("a played tile is also held");
      seen |= Bit(t.tiles[k]);
      ++played[t.seats[k]];
      // The tile came from the hand dealt to that seat.
      bool from_hand = false;
      for (int j = 0; j < hand_size; ++j) from_hand |= deck_[t.seats[k] * hand_size + j] == t.tiles[k];
      if (!from_hand) return absl::InternalError("a seat played a tile it was not dealt");
    }
    if (i < num_tricks_) {
      taken[Team(trick_winner_[i])] += TrickPoints(i);
    }
  }
  if (seen != tricks::AllTiles(tab.num_tiles)) return absl::InternalError("tiles were lost");
  for (int s = 0; s < tab.seats; ++s) {
    if (std::popcount(hands_[s]) + played[s] != hand_size) {
      return absl::InternalError(absl::StrCat("seat ", s, "'s tiles do not add up to ", hand_size));
    }
  }
  if (taken[0] != taken_[0] || taken[1] != taken_[1]) {
    return absl::InternalError("points taken disagree with the tricks");
  }
  const Hand lost = opts().left_out_to_last_trick ? 0 : LeftOut();
  const int hand_total = tab.hand_points - tricks::CountPoints(lost) -
                         tab.double_points * std::popcount(lost & tricks::kDoubleTiles);
  if (contract_ == Contract::kTrumps && num_tricks_ == hand_size &&
      taken[0] + taken[1] != hand_total) {
    return absl::InternalError(absl::StrCat("a hand did not total ", tab.hand_points));
  }
  for (int t = 0; t < 2; ++t) {
    if (scores_[t] < 0 || marks_[t] < 0) return absl::InternalError("a negative score");
  }
  if (terminal_) {
    if (winner_team_ < 0) return absl::InternalError("the match is over without a winner");
    return absl::OkStatus();
  }
  // Hidden hands never hold a tile their seat has shown it cannot hold, and a plunger or
  // splasher still holds the doubles it showed.
  for (int s = 0; s < tab.seats; ++s) {
    if (hands_[s] & excluded_[s]) {
      return absl::InternalError(absl::StrCat("seat ", s, " holds a tile it showed it lacks"));
    }
    if (std::popcount(hands_[s] & tricks::kDoubleTiles) < DoublesStillHeld(s)) {
      return absl::InternalError(absl::StrCat("seat ", s, " bid ", BidText(calls_[s]),
                                              " without the doubles"));
    }
  }
  if (current_ < 0 || current_ >= tab.seats || current_ == sitting_out_) {
    return absl::InternalError("bad current seat");
  }
  return absl::OkStatus();
}

std::string FortyTwoState::ToString() const {
  std::string out = absl::StrCat("round ", round_ + 1, terminal_ ? " over" : "", " | shaker ",
                                 shaker_, " | seat ", current_, " to act | points ", scores_[0],
                                 " ", scores_[1], " | marks ", marks_[0], " ", marks_[1]);
  for (int s = 0; s < seats(); ++s) {
    absl::StrAppend(&out, " | hand ", s, ": ", HandText(hands_[s]), " void ",
                    absl::StrJoin(SuitList(voids_[s]), "/"), " excl ", excluded_[s]);
  }
  absl::StrAppend(&out, " | bids:");
  for (int s = 0; s < seats(); ++s) absl::StrAppend(&out, " ", bidding_.said(s));
  absl::StrAppend(&out, " | bidder ", bidder_, " ", BidText(bid_action_), " value ", bid_value_,
                  " marks ", bid_marks_, " | declarer ", declarer_, " contract ",
                  contract_action_ == kPass ? std::string("-") : ActionToString(contract_action_),
                  " | out ", sitting_out_, " | tricks:");
  for (int i = 0; i <= num_tricks_ && i < table().hand_size; ++i) {
    const tricks::Trick& t = tricks_[i];
    if (t.empty()) continue;
    absl::StrAppend(&out, " [");
    for (int k = 0; k < t.size; ++k) {
      absl::StrAppend(&out, k ? " " : "", t.seats[k], ":", TileName(t.tiles[k]));
    }
    absl::StrAppend(&out, i < num_tricks_ ? absl::StrCat(" → ", trick_winner_[i]) : "", "]");
  }
  absl::StrAppend(&out, " | taken ", taken_[0], " ", taken_[1], " | dealt:");
  for (int i = 0; i < table().num_tiles; ++i) absl::StrAppend(&out, " ", TileName(deck_[i]));
  if (has_last_) {
    absl::StrAppend(&out, " | last hand ", last_.round + 1, " bidder ", last_.bidder, " ",
                    last_.bid, " ", last_.contract, last_.made ? " made " : " set ",
                    last_.scored[0], "/", last_.scored[1]);
  }
  if (terminal_) absl::StrAppend(&out, " | winner team ", winner_team_);
  return out;
}

nlohmann::json FortyTwoState::ResultDetails() const {
  return {{"rounds", round_ + 1},
          {"scoring", opts().scoring == Scoring::kMarks ? "marks" : "points"},
          {"team_points", {scores_[0], scores_[1]}},
          {"team_marks", {marks_[0], marks_[1]}},
          {"winning_team", winner_team_}};
}

}  // namespace boneyard::forty_two
