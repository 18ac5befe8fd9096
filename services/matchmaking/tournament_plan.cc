#include "services/matchmaking/tournament_plan.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "engine/bots/bot.h"
#include "engine/core/registry.h"
#include "services/common/engine_proto.h"
#include "services/common/validation.h"
#include "services/matchmaking/tournament/knockout.h"
#include "services/matchmaking/tournament/round_robin.h"
#include "services/matchmaking/tournament/swiss.h"
#include "services/matchmaking/tournament/tiebreaks.h"
#include "services/matchmaking/tournament_arena.h"
#include "services/matchmaking/tournament_duplicate.h"
#include "services/matchmaking/tournament_league.h"
#include "services/matchmaking/tournament_tables.h"

namespace boneyard::matchmaking {
namespace {

namespace t = ::boneyard::tournament;


bool IsForfeit(v1::Outcome o) {
  return o == v1::BLACK_FORFEITED || o == v1::WHITE_FORFEITED || o == v1::BOTH_FORFEITED;
}

// The codes of white and black for a decided pairing.
std::pair<t::RoundCode, t::RoundCode> CodesOf(v1::Outcome o) {
  using C = t::RoundCode;
  switch (o) {
    case v1::WHITE_WON:
      return {C::kWin, C::kLoss};
    case v1::BLACK_WON:
      return {C::kLoss, C::kWin};
    case v1::DRAWN:
      return {C::kDraw, C::kDraw};
    case v1::BLACK_FORFEITED:
      return {C::kForfeitWin, C::kForfeitLoss};
    case v1::WHITE_FORFEITED:
      return {C::kForfeitLoss, C::kForfeitWin};
    case v1::BOTH_FORFEITED:
      return {C::kForfeitLoss, C::kForfeitLoss};
    case v1::BYE:
      return {C::kPairingBye, C::kNone};
    default:
      return {C::kNone, C::kNone};
  }
}


// Game points (C.07's GP): what white's side and black's scored in a pairing's finished games —
// the game's own score (Forty-Two's marks, Muggins' points), read at each side's first seat.
std::array<double, 2> GamePoints(const std::vector<const GameRow*>& games,
                                 const std::array<std::vector<int>, 2>& sides) {
  std::array<double, 2> out = {0, 0};
  for (const GameRow* g : games) {
    v1::MatchResult result;
    if (g->result.empty() || !result.ParseFromString(g->result)) continue;
    const int white_seat = sides[g->white_first ? 0 : 1][0];
    const int black_seat = sides[g->white_first ? 1 : 0][0];
    if (result.scores_size() <= std::max(white_seat, black_seat)) continue;
    out[0] += result.scores(white_seat);
    out[1] += result.scores(black_seat);
  }
  return out;
}

// Boards from the library (TPNs) as pairings of entrant numbers, board order kept, the bye
// last.
std::vector<PairingRow> PairingsOf(const std::vector<t::Board>& boards,
                                   const std::vector<const EntrantRow*>& ranked, int round) {
  std::vector<PairingRow> out;
  for (const t::Board& b : boards) {
    PairingRow p;
    p.round = round;
    p.board = static_cast<int>(out.size()) + 1;
    p.white = ranked[b.white - 1]->number;
    p.black = b.black == 0 ? 0 : ranked[b.black - 1]->number;
    if (p.black == 0) p.override_outcome = v1::BYE;
    out.push_back(p);
  }
  return out;
}

std::string TieLabel(const t::Tie& tie) {
  switch (tie.part) {
    case t::BracketPart::kWinners:
      return absl::StrCat("W", tie.round, "-", tie.position + 1);
    case t::BracketPart::kLosers:
      return absl::StrCat("L", tie.round, "-", tie.position + 1);
    case t::BracketPart::kGrandFinal:
      return "GF";
    case t::BracketPart::kGrandFinalReset:
      return "GF2";
  }
  return "";
}

t::KnockoutSpec KnockoutSpecOf(const v1::Tournament& settings, int entrants) {
  return {.entrants = entrants,
          .elimination = settings.elimination() == v1::Tournament::DOUBLE
                             ? t::Elimination::kDouble
                             : t::Elimination::kSingle};
}

// The bracket and its state from the decided ties (seeds are pairing numbers).
struct KnockoutView {
  t::Bracket bracket;
  t::BracketState state;
};

absl::StatusOr<KnockoutView> EvaluateKnockout(const TournamentData& data,
                                              const v1::Tournament& settings,
                                              const std::array<std::vector<int>, 2>& sides) {
  const std::vector<const EntrantRow*> ranked = Ranked(data);
  absl::StatusOr<t::Bracket> bracket =
      t::MakeBracket(KnockoutSpecOf(settings, static_cast<int>(ranked.size())));
  if (!bracket.ok()) return bracket.status();
  std::vector<t::TieResult> results;
  for (const PairingRow& p : data.pairings) {
    if (p.tie_id < 0) continue;
    const PairingState s = EvaluatePairing(settings, p, GamesOf(data, p.round, p.board), sides);
    if (!s.decided()) continue;
    const bool white_won = s.outcome == v1::WHITE_WON || s.outcome == v1::BLACK_FORFEITED;
    const EntrantRow* winner = EntrantByNumber(data, white_won ? p.white : p.black);
    results.push_back({.tie = p.tie_id, .winner = winner->pairing_number});
  }
  absl::StatusOr<t::BracketState> state = t::EvaluateBracket(*bracket, results);
  if (!state.ok()) return state.status();
  return KnockoutView{*std::move(bracket), *std::move(state)};
}

// Pairs `round` (the next) into `changes`; false for a knockout with nothing left to pair.
absl::StatusOr<bool> PairRound(const TournamentData& data, const v1::Tournament& settings,
                               int round, absl::Time now, TournamentChanges& changes) {
  if (AtTables(settings)) {
    if (absl::Status s = PairTables(data, settings, round, now, changes); !s.ok()) return s;
    changes.new_rounds.push_back({.round = round, .start_time = now});
    changes.current_round = round;
    return true;
  }
  absl::StatusOr<std::array<std::vector<int>, 2>> sides = SideSeats(settings);
  if (!sides.ok()) return sides.status();
  const std::vector<const EntrantRow*> ranked = Ranked(data);
  std::vector<PairingRow> pairings;
  switch (settings.format()) {
    case v1::Tournament::SWISS: {
      absl::StatusOr<t::EventRecord> event = EventRecordOf(data);
      if (!event.ok()) return event.status();
      for (t::Entrant& e : event->entrants) {
        const EntrantRow& row = *ranked[e.tpn - 1];
        e.withdrawn = WithdrawnBy(row, round);
        const bool half = std::count(row.bye_rounds.begin(), row.bye_rounds.end(), round) > 0;
        const bool zero = std::count(row.zero_rounds.begin(), row.zero_rounds.end(), round) > 0;
        if (half || zero) {
          if (e.rounds.size() < static_cast<size_t>(round)) e.rounds.resize(round);
          e.rounds[round - 1].code = half ? t::RoundCode::kHalfBye : t::RoundCode::kZeroBye;
        }
      }
      const int fast_above = settings.fast_above() > 0 ? settings.fast_above() : kDefaultFastAbove;
      absl::StatusOr<std::vector<t::Board>> boards =
          t::PairSwissRound(*event, round, {.fast_above = fast_above});
      if (!boards.ok()) return boards.status();
      pairings = PairingsOf(*boards, ranked, round);
      break;
    }
    case v1::Tournament::ROUND_ROBIN: {
      const int n = static_cast<int>(ranked.size());
      absl::StatusOr<std::vector<std::vector<t::Board>>> schedule =
          settings.double_round_robin() ? t::DoubleRoundRobin(n) : t::BergerSchedule(n);
      if (!schedule.ok()) return schedule.status();
      pairings = PairingsOf((*schedule)[round - 1], ranked, round);
      break;
    }
    case v1::Tournament::KNOCKOUT: {
      absl::StatusOr<KnockoutView> ko = EvaluateKnockout(data, settings, *sides);
      if (!ko.ok()) return ko.status();
      for (int tie_id : ko->state.ready) {
        const bool paired = std::any_of(data.pairings.begin(), data.pairings.end(),
                                        [&](const PairingRow& p) { return p.tie_id == tie_id; });
        if (paired) continue;
        const t::TieState& tie = ko->state.ties[tie_id];
        const int high = std::min(tie.entrants[0], tie.entrants[1]);
        const int low = std::max(tie.entrants[0], tie.entrants[1]);
        pairings.push_back({.round = round,
                            .board = static_cast<int>(pairings.size()) + 1,
                            .white = ranked[high - 1]->number,
                            .black = ranked[low - 1]->number,
                            .tie = TieLabel(ko->bracket.ties[tie_id]),
                            .tie_id = tie_id,
                            .override_outcome = 0,
                            .table = {}});
      }
      if (pairings.empty()) return false;
      break;
    }
    default:
      return absl::InternalError("the stored format is unknown");
  }
  changes.new_rounds.push_back({.round = round, .start_time = now});
  changes.current_round = round;
  for (PairingRow& p : pairings) {
    if (p.black != 0 && p.override_outcome == 0) {
      p.override_outcome =
          ForfeitFor(*EntrantByNumber(data, p.white), *EntrantByNumber(data, p.black), round);
    }
    if (p.override_outcome == 0) {
      changes.new_games.push_back(NewTwoSidedGame(data, settings, *sides, p, 1, true, now));
    }
    changes.new_pairings.push_back(p);
  }
  return true;
}

// Whether every pairing of `round` is decided; adds a series' next games to `changes`.
absl::StatusOr<bool> RoundDecided(const TournamentData& data, const v1::Tournament& settings,
                                  int round, absl::Time now, TournamentChanges* changes) {
  if (AtTables(settings)) {
    const std::map<int, TableState> tables = EvaluateRoundTables(data, settings, round);
    return std::all_of(tables.begin(), tables.end(),
                       [](const auto& table) { return table.second.decided(); });
  }
  absl::StatusOr<std::array<std::vector<int>, 2>> sides = SideSeats(settings);
  if (!sides.ok()) return sides.status();
  bool decided = true;
  for (const PairingRow& p : data.pairings) {
    if (p.round != round) continue;
    const std::vector<const GameRow*> games = GamesOf(data, p.round, p.board);
    const PairingState s = EvaluatePairing(settings, p, games, *sides);
    if (s.decided()) continue;
    decided = false;
    if (s.needs_game && changes != nullptr) {
      changes->new_games.push_back(NewTwoSidedGame(
          data, settings, *sides, p, static_cast<int>(games.size()) + 1, s.next_white_first, now));
    }
  }
  return decided;
}

// Applies `changes`' pairing numbers and withdrawals to a copy of `data`.
TournamentData Applied(const TournamentData& data, const TournamentChanges& changes) {
  TournamentData copy = data;
  for (EntrantRow& e : copy.entrants) {
    if (auto it = changes.pairing_numbers.find(e.number); it != changes.pairing_numbers.end()) {
      e.pairing_number = it->second;
    }
    if (auto it = changes.first_rounds.find(e.number); it != changes.first_rounds.end()) {
      e.first_round = it->second;
    }
  }
  return copy;
}

absl::StatusOr<TournamentChanges> NextRoundOrEnd(const TournamentData& data,
                                                 const v1::Tournament& settings, absl::Time now) {
  TournamentChanges changes;
  const int current = data.tournament.current_round;
  const bool last =
      settings.format() != v1::Tournament::KNOCKOUT && current >= data.tournament.rounds;
  if (!last) {
    if (settings.format() == v1::Tournament::SWISS && HasLateEntrants(data)) {
      NumberEntrants(data, current + 1, changes);
    }
    absl::StatusOr<bool> paired =
        PairRound(Applied(data, changes), settings, current + 1, now, changes);
    if (absl::IsFailedPrecondition(paired.status()) && settings.format() == v1::Tournament::SWISS) {
      // No pairing of the next round meets the absolute criteria (everyone left has met):
      // the event ends with the rounds played, and the log says why.
      changes = TournamentChanges{};
      changes.audit.push_back(
          {"director", "finish_early",
           absl::StrCat("round ", current + 1, ": ", paired.status().message())});
    } else if (!paired.ok()) {
      return paired.status();
    } else if (*paired) {
      return changes;
    }
  }
  changes.state = kTournamentFinished;
  changes.end_time = now;
  if (settings.format() == v1::Tournament::KNOCKOUT) changes.rounds = current;
  return changes;
}

}  // namespace

GameRow NewTwoSidedGame(const TournamentData& data, const v1::Tournament& settings,
                        const std::array<std::vector<int>, 2>& sides, const PairingRow& p,
                        int number, bool white_first, absl::Time now) {
  const int seats = static_cast<int>(sides[0].size() + sides[1].size());
  return NewGame(
      data, settings, p, number, white_first, seats,
      [&](v1::CreateMatchRequest& request) {
        FillSeats(*EntrantByNumber(data, p.white), sides[white_first ? 0 : 1], request);
        FillSeats(*EntrantByNumber(data, p.black), sides[white_first ? 1 : 0], request);
      },
      now);
}

void NumberEntrants(const TournamentData& data, int round, TournamentChanges& changes) {
  std::vector<const EntrantRow*> order;
  for (const EntrantRow& e : data.entrants) order.push_back(&e);
  std::stable_sort(order.begin(), order.end(),
                   [](const EntrantRow* a, const EntrantRow* b) { return a->rating > b->rating; });
  for (size_t i = 0; i < order.size(); ++i) {
    const int number = static_cast<int>(i) + 1;
    if (order[i]->pairing_number != number) {
      changes.pairing_numbers[order[i]->number] = number;
    }
    if (order[i]->first_round == 0) changes.first_rounds[order[i]->number] = round;
  }
}

bool HasLateEntrants(const TournamentData& data) {
  return std::any_of(data.entrants.begin(), data.entrants.end(),
                     [](const EntrantRow& e) { return e.pairing_number == 0; });
}

absl::Status InvalidSetting(absl::string_view field, absl::string_view why) {
  return absl::InvalidArgumentError(absl::StrCat("tournament.", field, ": ", why));
}

int ForfeitFor(const EntrantRow& white, const EntrantRow& black, int round) {
  const bool w = WithdrawnBy(white, round);
  const bool b = WithdrawnBy(black, round);
  if (w && b) return v1::BOTH_FORFEITED;
  if (w) return v1::WHITE_FORFEITED;
  if (b) return v1::BLACK_FORFEITED;
  return 0;
}

std::map<std::pair<int, int>, std::vector<const GameRow*>> GamesByPairing(
    const TournamentData& data) {
  std::map<std::pair<int, int>, std::vector<const GameRow*>> out;
  for (const GameRow& g : data.games) out[{g.round, g.board}].push_back(&g);  // stored in order
  return out;
}

std::vector<const GameRow*> GamesOf(const TournamentData& data, int round, int board) {
  std::vector<const GameRow*> out;
  for (const GameRow& g : data.games) {
    if (g.round == round && g.board == board) out.push_back(&g);
  }
  return out;
}

std::map<int, std::vector<const GameRow*>> RoundGames(const TournamentData& data, int round) {
  std::map<int, std::vector<const GameRow*>> out;
  for (const GameRow& g : data.games) {
    if (g.round == round) out[g.board].push_back(&g);
  }
  for (auto& [board, games] : out) {
    std::stable_sort(games.begin(), games.end(),
                     [](const GameRow* a, const GameRow* b) { return a->game < b->game; });
  }
  return out;
}

const EntrantRow* EntrantByNumber(const TournamentData& data, int number) {
  // TournamentData keeps the entrants by number: a binary search, as a round writes every
  // seat's entrant (10,000 scans of 10,000 took most of a large round's pairing).
  auto it = std::lower_bound(data.entrants.begin(), data.entrants.end(), number,
                             [](const EntrantRow& e, int n) { return e.number < n; });
  return it != data.entrants.end() && it->number == number ? &*it : nullptr;
}

// Entrants in the event (pairing number set), by pairing number.
std::vector<const EntrantRow*> Ranked(const TournamentData& data) {
  std::vector<const EntrantRow*> out;
  for (const EntrantRow& e : data.entrants) {
    if (e.pairing_number > 0) out.push_back(&e);
  }
  std::sort(out.begin(), out.end(), [](const EntrantRow* a, const EntrantRow* b) {
    return a->pairing_number < b->pairing_number;
  });
  return out;
}

bool WithdrawnBy(const EntrantRow& e, int round) {
  return e.withdrawn_round > 0 && e.withdrawn_round <= round;
}

void FillSeats(const EntrantRow& entrant, const std::vector<int>& seats,
               v1::CreateMatchRequest& request) {
  v1::Bot bot;
  const bool is_bot = entrant.players.empty() && bot.ParseFromString(entrant.bot);
  for (size_t i = 0; i < seats.size(); ++i) {
    v1::Seat& seat = *request.mutable_seats(seats[i]);
    if (is_bot) {
      *seat.mutable_bot() = bot;
    } else {
      seat.mutable_player()->set_player_id(entrant.players[i % entrant.players.size()]);
    }
  }
}

GameRow NewGame(const TournamentData& data, const v1::Tournament& settings, const PairingRow& p,
                int number, bool white_first, int seats,
                const std::function<void(v1::CreateMatchRequest&)>& fill, absl::Time now) {
  const std::string& id = data.tournament.tournament_id;
  v1::CreateMatchRequest request;
  request.set_game(settings.game());
  *request.mutable_rules() = settings.rules();
  for (int i = 0; i < seats; ++i) request.add_seats();
  *request.mutable_clock() = settings.clock();
  request.set_casual(!settings.rated());
  request.set_queue(absl::StrCat("tournaments/", id));
  request.set_request_id(GameRequestId(id, p.round, p.board, number));
  fill(request);
  GameRow game;
  game.tournament_id = id;
  game.round = p.round;
  game.board = p.board;
  game.game = number;
  game.white_first = white_first;
  game.request_id = request.request_id();
  game.request = request.SerializeAsString();
  game.create_time = now;
  return game;
}

std::string GameRequestId(const std::string& tournament_id, int round, int board, int game) {
  return absl::StrCat("tournaments/", tournament_id, "/rounds/", round, "/boards/", board,
                      "/games/", game);
}

absl::Status CheckTournamentSettings(const v1::Tournament& t) {
  if (absl::Status s = validation::CheckDisplayName("tournament.display_name", t.display_name(),
                                                    kMaxTournamentDisplayNameChars);
      !s.ok()) {
    return s;
  }
  if (t.has_registration_close_time()) {
    if (absl::Status s = validation::CheckTimestamp("tournament.registration_close_time",
                                                    t.registration_close_time());
        !s.ok()) {
      return s;
    }
  }
  if (absl::Status s = validation::CheckId("tournament.game", t.game()); !s.ok()) return s;
  const GameSpec* spec = DefaultRegistry().Find(t.game());
  if (spec == nullptr) {
    return InvalidSetting("game", absl::StrCat("unknown game ", validation::Quote(t.game())));
  }
  absl::StatusOr<std::map<std::string, OptionValue>> values = RuleValuesFromProto(t.rules(), *spec);
  if (!values.ok()) return InvalidSetting("rules", values.status().message());
  if (absl::Status s = validation::CheckEnum("tournament.format", t.format()); !s.ok()) return s;
  if (t.format() == v1::Tournament::FORMAT_UNSPECIFIED) {
    return InvalidSetting("format",
                          "set SWISS, ROUND_ROBIN, KNOCKOUT, PARTNER_ROTATION, ARENA or LEAGUE");
  }
  if (absl::Status s = CheckArenaSettings(t); !s.ok()) return s;
  if (absl::Status s = CheckLeagueSettings(t); !s.ok()) return s;
  if (t.format() == v1::Tournament::SWISS && (t.rounds() < 1 || t.rounds() > kMaxSwissRounds)) {
    return InvalidSetting("rounds",
                          absl::StrCat("a Swiss needs 1 to ", kMaxSwissRounds, " rounds"));
  }
  if (t.format() != v1::Tournament::SWISS && t.initial_colour_black()) {
    return InvalidSetting("initial_colour_black", "is for SWISS");
  }
  if (t.team_size() < 0 || t.team_size() > 4) return InvalidSetting("team_size", "must be 0 to 4");
  if (t.table_size() != 0 || IsPartnerRotation(t)) {
    // Tables have their own rounds, seats and tie-breaks; the rest is checked as for any event.
    if (absl::Status s = CheckTableSettings(t); !s.ok()) return s;
  } else {
    if (t.duplicate()) {
      return InvalidSetting("duplicate",
                            "is for tables and PARTNER_ROTATION (two players: tables of 2)");
    }
    if (t.min_table_size() != 0 || t.placement_points_size() != 0) {
      return InvalidSetting("table_size", "is needed for min_table_size and placement_points");
    }
    if (t.format() != v1::Tournament::SWISS && t.rounds() != 0) {
      return InvalidSetting("rounds", "is set by the service for this format; leave it 0");
    }
    if (absl::Status s = SideSeats(NormalizedSettings(t)).status(); !s.ok()) return s;
  }
  if (absl::Status s = validation::CheckNonNegativeDuration(
          "tournament.clock.per_move", t.clock().per_move(), validation::kMaxPerMove);
      !s.ok()) {
    return s;
  }
  if (absl::Status s =
          validation::CheckEnum("tournament.clock.timeout_policy", t.clock().timeout_policy());
      !s.ok()) {
    return s;
  }
  if (t.clock().timeout_policy() != v1::ClockSettings::TIMEOUT_POLICY_UNSPECIFIED &&
      FromDuration(t.clock().per_move()) <= absl::ZeroDuration()) {
    return InvalidSetting("clock.timeout_policy", "is set without tournament.clock.per_move");
  }
  if (absl::Status s = validation::CheckCount("tournament.tiebreaks", t.tiebreaks_size(),
                                              kMaxTieBreaks);
      !s.ok()) {
    return s;
  }
  for (const std::string& name : t.tiebreaks()) {
    if (!t::ParseTieBreak(name).ok()) {
      return InvalidSetting("tiebreaks", absl::StrCat("unknown tie-break ", validation::Quote(name),
                                                      " (BH, BH/C1, SB, DE, WIN, MP, GP)"));
    }
  }
  if (t.max_entrants() < 0 || t.max_entrants() == 1 || t.max_entrants() > kMaxTournamentEntrants) {
    return InvalidSetting("max_entrants", absl::StrCat("must be 2 to ", kMaxTournamentEntrants));
  }
  if (absl::Status s = validation::CheckEnum("tournament.elimination", t.elimination()); !s.ok()) {
    return s;
  }
  if (t.best_of() < 0 || t.best_of() > kMaxBestOf || (t.best_of() > 0 && t.best_of() % 2 == 0)) {
    return InvalidSetting("best_of", absl::StrCat("must be odd, 1 to ", kMaxBestOf));
  }
  if (t.format() != v1::Tournament::KNOCKOUT && t.best_of() > 1) {
    return InvalidSetting("best_of", "series are for KNOCKOUT");
  }
  if (t.fast_above() < 0) return InvalidSetting("fast_above", "is negative");
  for (int i = 0; i < t.forbidden_pairs_size(); ++i) {
    const std::string field = absl::StrCat("tournament.forbidden_pairs[", i, "]");
    if (absl::Status s = validation::CheckId(field + ".first", t.forbidden_pairs(i).first());
        !s.ok()) {
      return s;
    }
    if (absl::Status s = validation::CheckId(field + ".second", t.forbidden_pairs(i).second());
        !s.ok()) {
      return s;
    }
    if (t.forbidden_pairs(i).first() == t.forbidden_pairs(i).second()) {
      return absl::InvalidArgumentError(
          absl::StrCat(field, ": pairs a player with itself (",
                       validation::Quote(t.forbidden_pairs(i).first()), ")"));
    }
  }
  if (absl::Status s = validation::CheckCount("tournament.forbidden_pairs",
                                              t.forbidden_pairs_size(), kMaxTournamentEntrants);
      !s.ok()) {
    return s;
  }
  return absl::OkStatus();
}

v1::Tournament NormalizedSettings(const v1::Tournament& t) {
  v1::Tournament s = t;
  s.clear_name();
  s.clear_state();
  s.clear_current_round();
  s.clear_entrant_count();
  s.clear_create_time();
  s.clear_start_time();
  s.clear_end_time();
  if (s.team_size() == 0) s.set_team_size(1);
  NormalizePartnerRotation(s);
  // Every table of a duplicate round must be dealt the same: one size.
  if (s.duplicate() && s.table_size() > 0) s.set_min_table_size(s.table_size());
  if (s.max_entrants() == 0) s.set_max_entrants(kMaxTournamentEntrants);
  if (s.best_of() == 0) s.set_best_of(1);
  if (s.format() == v1::Tournament::KNOCKOUT &&
      s.elimination() == v1::Tournament::ELIMINATION_UNSPECIFIED) {
    s.set_elimination(v1::Tournament::SINGLE);
  }
  if (s.fast_above() == 0) s.set_fast_above(kDefaultFastAbove);
  if (s.has_league()) s.mutable_league()->clear_carried_entrants();  // the service's to set
  return s;
}

absl::StatusOr<v1::Tournament> SettingsOf(const TournamentRow& row) {
  v1::Tournament settings;
  if (!settings.ParseFromString(row.settings)) {
    return absl::InternalError("a stored tournament's settings do not parse");
  }
  return settings;
}

v1::Tournament TournamentOf(const TournamentRow& row, const v1::Tournament& settings) {
  v1::Tournament out = settings;
  out.set_name(absl::StrCat("tournaments/", row.tournament_id));
  out.set_state(static_cast<v1::Tournament::State>(row.state));
  out.set_current_round(row.current_round);
  out.set_entrant_count(row.entrant_count);
  if (settings.format() != v1::Tournament::SWISS) out.set_rounds(row.rounds);
  *out.mutable_create_time() = ToTimestamp(row.create_time);
  if (row.start_time) *out.mutable_start_time() = ToTimestamp(*row.start_time);
  if (row.end_time) *out.mutable_end_time() = ToTimestamp(*row.end_time);
  return out;
}

v1::Entrant EntrantOf(const std::string& tournament_id, const EntrantRow& row) {
  v1::Entrant out;
  out.set_name(absl::StrCat("tournaments/", tournament_id, "/entrants/", row.number));
  out.set_number(row.number);
  out.set_display_name(row.display_name);
  for (const std::string& p : row.players) out.add_player_ids(p);
  if (!row.bot.empty()) out.mutable_bot()->ParseFromString(row.bot);
  out.set_rating(row.rating);
  out.set_withdrawn(row.withdrawn_round > 0);
  out.set_withdrawn_round(row.withdrawn_round);
  for (int r : row.bye_rounds) out.add_bye_rounds(r);
  for (int r : row.zero_rounds) out.add_zero_rounds(r);
  *out.mutable_register_time() = ToTimestamp(row.register_time);
  return out;
}

absl::StatusOr<std::array<std::vector<int>, 2>> SideSeats(const v1::Tournament& settings) {
  const GameSpec* spec = DefaultRegistry().Find(settings.game());
  if (spec == nullptr) return InvalidSetting("game", "unknown game");
  absl::StatusOr<std::map<std::string, OptionValue>> values =
      RuleValuesFromProto(settings.rules(), *spec);
  if (!values.ok()) return InvalidSetting("rules", values.status().message());
  const int team_size = std::max(1, settings.team_size());
  const bool has_players = std::any_of(spec->options.begin(), spec->options.end(),
                                       [](const OptionSpec& o) { return o.name == "players"; });
  const int64_t seated = 2 * team_size;
  // The games are created with the event's rules as written: a `players` that is not the
  // table the format seats would have every game of a round refused by execution.
  if (auto players = values->find("players"); players != values->end()) {
    const int64_t* given = std::get_if<int64_t>(&players->second);
    if (given == nullptr || *given != seated) {
      return InvalidSetting("rules.players",
                            absl::StrCat("is set by team_size (", seated,
                                         " players here); leave it out"));
    }
  }
  if (has_players) (*values)["players"] = seated;
  absl::StatusOr<std::shared_ptr<const Game>> game =
      DefaultRegistry().CreateGame(spec->name, *values);
  if (!game.ok()) {
    // The rules alone, at the game's own number of players, tell whose error it is: the
    // table's size (team_size) or the other options (rules).
    std::map<std::string, OptionValue> others = *values;
    others.erase("players");
    if (has_players && DefaultRegistry().CreateGame(spec->name, others).ok()) {
      return InvalidSetting("team_size",
                            absl::StrCat(settings.game(), " cannot seat two sides of ", team_size,
                                         ": ", game.status().message()));
    }
    return InvalidSetting("rules", game.status().message());
  }
  const Teams& teams = (*game)->teams();
  std::array<std::vector<int>, 2> sides;
  if (team_size == 1) {
    if ((*game)->num_seats() != 2 || !teams.empty()) {
      return InvalidSetting(
          "team_size",
          absl::StrCat(settings.game(), " under these rules seats ", (*game)->num_seats(),
                       (teams.empty() ? "" : " in teams"), ", not one against one"));
    }
    sides = {std::vector<int>{0}, std::vector<int>{1}};
    return sides;
  }
  if (teams.size() != 2 || teams[0].size() != static_cast<size_t>(team_size) ||
      teams[1].size() != static_cast<size_t>(team_size)) {
    return InvalidSetting(
        "team_size",
        absl::StrCat(settings.game(), " under these rules has no two teams of ", team_size));
  }
  const int first = (*game)->TeamOf(0) == (*game)->TeamOf(teams[0][0]) ? 0 : 1;
  sides[0] = teams[first];
  sides[1] = teams[1 - first];
  return sides;
}

v1::Outcome GameOutcome(const GameRow& game, const std::array<std::vector<int>, 2>& sides) {
  if (game.result.empty()) return v1::OUTCOME_UNSPECIFIED;
  v1::MatchResult result;
  if (!result.ParseFromString(game.result)) return v1::OUTCOME_UNSPECIFIED;
  const std::vector<int>& white = sides[game.white_first ? 0 : 1];
  const std::vector<int>& black = sides[game.white_first ? 1 : 0];
  auto forfeited = [&](const std::vector<int>& seats) {
    return std::any_of(seats.begin(), seats.end(), [&](int s) {
      return std::find(result.forfeited_seats().begin(), result.forfeited_seats().end(), s) !=
             result.forfeited_seats().end();
    });
  };
  const bool wf = forfeited(white);
  const bool bf = forfeited(black);
  if (wf && bf) return v1::BOTH_FORFEITED;
  if (wf) return v1::WHITE_FORFEITED;
  if (bf) return v1::BLACK_FORFEITED;
  if (result.ranks_size() <= std::max(white[0], black[0])) return v1::OUTCOME_UNSPECIFIED;
  const int w = result.ranks(white[0]);
  const int b = result.ranks(black[0]);
  if (w < b) return v1::WHITE_WON;
  if (b < w) return v1::BLACK_WON;
  return v1::DRAWN;
}

PairingState EvaluatePairing(const v1::Tournament& settings, const PairingRow& pairing,
                             const std::vector<const GameRow*>& games,
                             const std::array<std::vector<int>, 2>& sides) {
  PairingState state;
  std::vector<t::MatchOutcome> outcomes;
  for (const GameRow* g : games) {
    const v1::Outcome o = GameOutcome(*g, sides);
    if (o == v1::OUTCOME_UNSPECIFIED) continue;
    const bool white_won = o == v1::WHITE_WON || o == v1::BLACK_FORFEITED;
    const bool black_won = o == v1::BLACK_WON || o == v1::WHITE_FORFEITED;
    state.white_wins += white_won ? 1 : 0;
    state.black_wins += black_won ? 1 : 0;
    outcomes.push_back(white_won   ? t::MatchOutcome::kHigherSeedWon
                       : black_won ? t::MatchOutcome::kLowerSeedWon
                                   : t::MatchOutcome::kDrawn);
  }
  if (pairing.black == 0) {
    state.outcome = v1::BYE;
    return state;
  }
  if (pairing.override_outcome != 0) {
    state.outcome = static_cast<v1::Outcome>(pairing.override_outcome);
    return state;
  }
  const bool all_in =
      std::all_of(games.begin(), games.end(), [](const GameRow* g) { return !g->result.empty(); });
  if (settings.format() != v1::Tournament::KNOCKOUT) {
    if (!games.empty() && all_in) state.outcome = GameOutcome(*games.back(), sides);
    return state;
  }
  // A knockout tie: white is the higher seed (PairRound puts it there).
  absl::StatusOr<t::SeriesState> series =
      t::EvaluateSeries({.best_of = std::max(1, settings.best_of())}, outcomes);
  if (!series.ok()) return state;
  if (series->decided()) {
    const bool white = *series->winner == t::SeriesSide::kHigherSeed;
    // A one-game tie lost by a forfeit keeps the forfeit in the record.
    const v1::Outcome last =
        games.empty() ? v1::OUTCOME_UNSPECIFIED : GameOutcome(*games.back(), sides);
    if (games.size() == 1 && IsForfeit(last)) {
      state.outcome = last;
    } else {
      state.outcome = white ? v1::WHITE_WON : v1::BLACK_WON;
    }
    return state;
  }
  if (all_in) {
    state.needs_game = true;
    state.next_white_first = series->next_first == t::SeriesSide::kHigherSeed;
  }
  return state;
}

absl::StatusOr<tournament::EventRecord> EventRecordOf(const TournamentData& data) {
  absl::StatusOr<v1::Tournament> settings = SettingsOf(data.tournament);
  if (!settings.ok()) return settings.status();
  if (AtTables(*settings)) {
    return absl::FailedPreconditionError("an event at tables has no two-sided record (TRF)");
  }
  if (IsArena(*settings)) {
    return absl::FailedPreconditionError("an arena has no rounds for a TRF: its games overlap");
  }
  // A league's fixtures are written for the whole season; those of rounds not yet opened are
  // not part of the record.
  const int opened = data.tournament.current_round;
  absl::StatusOr<std::array<std::vector<int>, 2>> sides = SideSeats(*settings);
  if (!sides.ok()) return sides.status();
  const std::vector<const EntrantRow*> ranked = Ranked(data);
  std::map<int, int> tpn;  // entrant number -> TPN
  t::EventRecord event;
  event.name = settings->display_name();
  event.total_rounds =
      data.tournament.rounds > 0 ? data.tournament.rounds : data.tournament.current_round;
  if (settings->format() == v1::Tournament::ROUND_ROBIN || IsLeague(*settings)) {
    event.points.pairing_bye = 0;
  }
  if (settings->initial_colour_black()) event.initial_colour = t::Colour::kBlack;
  for (const EntrantRow* e : ranked) {
    tpn[e->number] = e->pairing_number;
    t::Entrant entrant;
    entrant.tpn = e->pairing_number;
    entrant.name = e->display_name;
    entrant.rating = static_cast<int>(std::clamp(e->rating, 0.0, 9999.0));
    entrant.rounds.resize(data.tournament.current_round);
    entrant.withdrawn = WithdrawnBy(*e, data.tournament.current_round + 1);
    for (int r : e->bye_rounds) {
      if (r >= 1 && r <= data.tournament.current_round) {
        entrant.rounds[r - 1].code = t::RoundCode::kHalfBye;
      }
    }
    for (int r : e->zero_rounds) {
      if (r >= 1 && r <= data.tournament.current_round) {
        entrant.rounds[r - 1].code = t::RoundCode::kZeroBye;
      }
    }
    // A late entrant was absent from the rounds before it joined: zero-point byes, as a TRF
    // writes them, so that those rounds re-pair without it.
    for (int r = 1; r < e->first_round && r <= data.tournament.current_round; ++r) {
      entrant.rounds[r - 1].code = t::RoundCode::kZeroBye;
    }
    event.entrants.push_back(std::move(entrant));
  }
  for (const PairingRow& p : data.pairings) {
    if (p.round > opened) continue;
    const std::vector<const GameRow*> games = GamesOf(data, p.round, p.board);
    const PairingState s = EvaluatePairing(*settings, p, games, *sides);
    const auto [white_code, black_code] = CodesOf(s.outcome);
    const std::array<double, 2> scored = GamePoints(games, *sides);
    t::RoundEntry& w = event.ByTpn(tpn[p.white]).rounds[p.round - 1];
    w = {.opponent = p.black == 0 ? 0 : tpn[p.black],
         .colour = p.black == 0 ? t::Colour::kNone : t::Colour::kWhite,
         .code = white_code,
         .game_points = scored[0]};
    if (p.black != 0) {
      event.ByTpn(tpn[p.black]).rounds[p.round - 1] = {.opponent = tpn[p.white],
                                                       .colour = t::Colour::kBlack,
                                                       .code = black_code,
                                                       .game_points = scored[1]};
    }
  }
  // Pairs of players never to meet, as pairs of TPNs.
  std::map<std::string, int> by_player;
  for (const EntrantRow* e : ranked) {
    for (const std::string& player : e->players) by_player[player] = e->pairing_number;
  }
  for (const v1::ForbiddenPair& pair : settings->forbidden_pairs()) {
    auto a = by_player.find(pair.first());
    auto b = by_player.find(pair.second());
    if (a != by_player.end() && b != by_player.end() && a->second != b->second) {
      event.forbidden_pairs.emplace_back(a->second, b->second);
    }
  }
  return event;
}

absl::StatusOr<tournament::EventRecord> TrfRecordOf(const TournamentData& data) {
  absl::StatusOr<v1::Tournament> settings = SettingsOf(data.tournament);
  if (!settings.ok()) return settings.status();
  if (IsLeague(*settings)) {
    return absl::FailedPreconditionError(
        "a league's divisions are separate round robins; a TRF holds one event");
  }
  absl::StatusOr<t::EventRecord> event = EventRecordOf(data);
  if (!event.ok()) return event.status();
  const std::vector<const EntrantRow*> ranked = Ranked(data);
  const int rounds = data.tournament.rounds;
  for (t::Entrant& e : event->entrants) {
    const EntrantRow& row = *ranked[e.tpn - 1];
    auto mark = [&](int r, t::RoundCode code) {
      if (r < 1 || r > rounds) return;
      if (e.rounds.size() < static_cast<size_t>(r)) e.rounds.resize(r);
      if (e.rounds[r - 1].code == t::RoundCode::kNone) e.rounds[r - 1].code = code;
    };
    // Byes asked for rounds to come: what the next pairing reads.
    for (int r : row.bye_rounds) {
      if (r > data.tournament.current_round) mark(r, t::RoundCode::kHalfBye);
    }
    for (int r : row.zero_rounds) {
      if (r > data.tournament.current_round) mark(r, t::RoundCode::kZeroBye);
    }
    if (row.withdrawn_round == 0) continue;
    for (int r = row.withdrawn_round; r <= rounds; ++r) mark(r, t::RoundCode::kZeroBye);
  }
  return event;
}

absl::StatusOr<TournamentChanges> PlanStart(const TournamentData& data, absl::Time now) {
  if (data.tournament.state != kTournamentRegistration) {
    return absl::FailedPreconditionError("the tournament has started already");
  }
  absl::StatusOr<v1::Tournament> settings = SettingsOf(data.tournament);
  if (!settings.ok()) return settings.status();
  if (data.entrants.size() < 2) {
    return absl::FailedPreconditionError(
        absl::StrCat("a tournament needs two entrants to start; it has ", data.entrants.size()));
  }
  if (IsLeague(*settings)) return PlanLeagueStart(data, *settings, now);
  TournamentChanges changes;
  NumberEntrants(data, 1, changes);
  const int n = static_cast<int>(data.entrants.size());
  switch (settings->format()) {
    case v1::Tournament::SWISS:
      changes.rounds = settings->rounds();
      break;
    case v1::Tournament::PARTNER_ROTATION:
      changes.rounds = TableRounds(*settings, n);
      break;
    case v1::Tournament::ARENA:
      changes.rounds = 0;  // counted as its passes pair
      break;
    case v1::Tournament::ROUND_ROBIN:
      changes.rounds = AtTables(*settings)
                           ? TableRounds(*settings, n)
                           : t::BergerRounds(n) * (settings->double_round_robin() ? 2 : 1);
      break;
    default:
      changes.rounds = 0;
  }
  changes.state = kTournamentRunning;
  changes.start_time = now;
  TournamentData started = Applied(data, changes);
  started.tournament.rounds = *changes.rounds;
  started.tournament.state = kTournamentRunning;
  if (IsArena(*settings)) {
    started.tournament.start_time = now;
    absl::StatusOr<TournamentChanges> first = PlanArenaStep(started, *settings, now);
    if (!first.ok()) return first.status();
    changes.new_rounds = std::move(first->new_rounds);
    changes.new_pairings = std::move(first->new_pairings);
    changes.new_games = std::move(first->new_games);
    if (first->current_round) changes.current_round = changes.rounds = first->current_round;
    return changes;
  }
  absl::StatusOr<bool> paired = PairRound(started, *settings, 1, now, changes);
  if (!paired.ok()) return paired.status();
  return changes;
}

absl::StatusOr<TournamentChanges> PlanStep(const TournamentData& data, absl::Time now) {
  if (data.tournament.state != kTournamentRunning) return TournamentChanges{};
  absl::StatusOr<v1::Tournament> settings = SettingsOf(data.tournament);
  if (!settings.ok()) return settings.status();
  if (IsArena(*settings)) return PlanArenaStep(data, *settings, now);
  if (IsLeague(*settings)) return PlanLeagueStep(data, *settings, now);
  TournamentChanges games;
  absl::StatusOr<bool> decided =
      RoundDecided(data, *settings, data.tournament.current_round, now, &games);
  if (!decided.ok()) return decided.status();
  if (!*decided) return games;
  // Manual rounds wait for AdvanceTournament, which pairs the next round itself.
  if (settings->manual_rounds()) return games;
  return NextRoundOrEnd(data, *settings, now);
}

absl::StatusOr<TournamentChanges> PlanAdvance(const TournamentData& data, absl::Time now) {
  if (data.tournament.state != kTournamentRunning) {
    return absl::FailedPreconditionError("the tournament is not running");
  }
  absl::StatusOr<v1::Tournament> settings = SettingsOf(data.tournament);
  if (!settings.ok()) return settings.status();
  if (IsArena(*settings)) {
    return absl::FailedPreconditionError("an arena pairs its entrants as their games end");
  }
  if (IsLeague(*settings)) {
    return absl::FailedPreconditionError("a league's rounds open on their dates");
  }
  absl::StatusOr<bool> decided =
      RoundDecided(data, *settings, data.tournament.current_round, now, nullptr);
  if (!decided.ok()) return decided.status();
  if (!*decided) {
    return absl::FailedPreconditionError(
        absl::StrCat("round ", data.tournament.current_round, " still has games without a result"));
  }
  absl::StatusOr<TournamentChanges> next = NextRoundOrEnd(data, *settings, now);
  if (next.ok()) next->audit.push_back({"operator", "advance", "paired the next round"});
  return next;
}

absl::StatusOr<TournamentChanges> PlanWithdraw(const TournamentData& data, int number,
                                               const std::string& actor) {
  const EntrantRow* entrant = EntrantByNumber(data, number);
  if (entrant == nullptr) return absl::NotFoundError("entrant: no such entrant");
  TournamentChanges changes;
  if (data.tournament.state == kTournamentRegistration) {
    changes.removed_entrants.push_back(number);
  } else if (data.tournament.state == kTournamentFinished) {
    return absl::FailedPreconditionError("the tournament is finished");
  } else if (entrant->withdrawn_round > 0) {
    return absl::FailedPreconditionError("the entrant has withdrawn already");
  } else {
    // Its game in the current round (if any) is played out; from the next round it is not
    // paired (and a knockout tie it would have played is forfeited).
    changes.withdrawals[number] = data.tournament.current_round + 1;
  }
  changes.audit.push_back({actor, "withdraw", absl::StrCat("entrant ", number)});
  return changes;
}

absl::StatusOr<TournamentChanges> PlanSetResult(const TournamentData& data, int round, int board,
                                                v1::Outcome outcome, const std::string& actor,
                                                const std::string& reason) {
  if (data.tournament.state != kTournamentRunning) {
    return absl::FailedPreconditionError("the tournament is not running");
  }
  absl::StatusOr<v1::Tournament> settings = SettingsOf(data.tournament);
  if (!settings.ok()) return settings.status();
  // An arena's rounds overlap, and a league's result may come after its round closed: a game
  // of any opened round may be the one to settle.
  const bool any_round = (IsArena(*settings) || IsLeague(*settings)) && round >= 1 &&
                         round <= data.tournament.current_round;
  if (round != data.tournament.current_round && !any_round) {
    return absl::FailedPreconditionError(absl::StrCat(
        "round: only the current round (", data.tournament.current_round, ") can be changed"));
  }
  const PairingRow* pairing = nullptr;
  for (const PairingRow& p : data.pairings) {
    if (p.round == round && p.board == board) pairing = &p;
  }
  if (pairing == nullptr) return absl::NotFoundError("board: no such board in the round");
  if (!pairing->table.empty()) {
    return absl::FailedPreconditionError("board: a table's places come from its game");
  }
  if (pairing->black == 0) return absl::FailedPreconditionError("board: a bye has no result");
  if (outcome == v1::OUTCOME_UNSPECIFIED || outcome == v1::BYE || outcome == v1::PLACED ||
      !v1::Outcome_IsValid(outcome)) {
    return absl::InvalidArgumentError("outcome: must be a game's result or a forfeit");
  }
  if (settings->format() == v1::Tournament::KNOCKOUT && outcome == v1::DRAWN) {
    return absl::InvalidArgumentError("outcome: a knockout tie cannot be drawn");
  }
  if (settings->format() == v1::Tournament::KNOCKOUT && outcome == v1::BOTH_FORFEITED) {
    return absl::InvalidArgumentError("outcome: a knockout tie needs a winner");
  }
  TournamentChanges changes;
  changes.overrides[{round, board}] = outcome;
  changes.audit.push_back(
      {actor, "set_result",
       absl::StrCat("round ", round, " board ", board, ": ", v1::Outcome_Name(outcome), " (was ",
                    v1::Outcome_Name(static_cast<v1::Outcome>(pairing->override_outcome)),
                    "): ", reason)});
  return changes;
}

v1::Round RoundOf(const TournamentData& data, int round, const std::optional<std::string>& viewer) {
  v1::Round out;
  out.set_name(absl::StrCat("tournaments/", data.tournament.tournament_id, "/rounds/", round));
  out.set_number(round);
  for (const RoundRow& r : data.rounds) {
    if (r.round == round) *out.mutable_start_time() = ToTimestamp(r.start_time);
  }
  absl::StatusOr<v1::Tournament> settings = SettingsOf(data.tournament);
  const bool tables = settings.ok() && AtTables(*settings);
  absl::StatusOr<std::array<std::vector<int>, 2>> sides =
      !settings.ok() ? absl::StatusOr<std::array<std::vector<int>, 2>>(settings.status())
      : tables       ? absl::StatusOr<std::array<std::vector<int>, 2>>(
                     absl::FailedPreconditionError("tables have no sides"))
               : SideSeats(*settings);
  bool finished = true;
  std::map<int, TableState> table_states;
  std::optional<DuplicateRound> duplicate;
  if (tables && settings->duplicate()) {
    duplicate = EvaluateDuplicateRound(data, *settings, round);
    table_states = duplicate->tables;
  } else if (tables) {
    table_states = EvaluateRoundTables(data, *settings, round);
  }
  const std::map<int, std::vector<const GameRow*>> round_games = RoundGames(data, round);
  for (const PairingRow& p : data.pairings) {
    if (p.round != round) continue;
    v1::Pairing& pairing = *out.add_pairings();
    pairing.set_board(p.board);
    pairing.set_white(p.white);
    pairing.set_black(p.black);
    pairing.set_tie(p.tie);
    pairing.set_overridden(p.override_outcome != 0 && p.override_outcome != v1::BYE);
    static const std::vector<const GameRow*> kNoGames;
    auto found = round_games.find(p.board);
    const std::vector<const GameRow*>& games = found == round_games.end() ? kNoGames : found->second;
    if (tables) {
      const TableState& s = table_states[p.board];
      for (int entrant : p.table) pairing.add_table(entrant);
      for (int place : s.places) pairing.add_places(place);
      for (double points : s.points) pairing.add_points(points);
      pairing.set_outcome(s.outcome);
      finished = finished && s.decided();
    } else if (sides.ok()) {
      const PairingState s = EvaluatePairing(*settings, p, games, *sides);
      pairing.set_outcome(s.outcome);
      pairing.set_white_wins(s.white_wins);
      pairing.set_black_wins(s.black_wins);
      finished = finished && s.decided();
    }
    for (const GameRow* g : games) {
      v1::PairingGame& game = *pairing.add_games();
      game.set_number(g->game);
      game.set_match(g->match_name);
      game.set_execution_target(g->execution_target);
      game.set_white_first(g->white_first);
      if (sides.ok()) game.set_outcome(GameOutcome(*g, *sides));
      if (tables && !g->result.empty()) game.set_outcome(v1::PLACED);
      if (!viewer || g->seat_tokens.empty()) continue;
      v1::CreateMatchRequest request;
      if (!request.ParseFromString(g->request)) continue;
      for (int seat = 0; seat < request.seats_size(); ++seat) {
        if (request.seats(seat).player().player_id() == *viewer &&
            seat < static_cast<int>(g->seat_tokens.size()) && !g->seat_tokens[seat].empty()) {
          v1::SeatToken& token = *game.add_seat_tokens();
          token.set_seat(seat);
          token.set_token(g->seat_tokens[seat]);
        }
      }
    }
  }
  out.set_state(finished ? v1::Round::FINISHED : v1::Round::PLAYING);
  if (settings.ok() && IsLeague(*settings)) {
    for (const RoundRow& r : data.rounds) {
      if (r.round != round) continue;
      *out.mutable_deadline() = ToTimestamp(RoundDeadline(*settings, r.start_time));
    }
    if (round > data.tournament.current_round) out.set_state(v1::Round::SCHEDULED);
  }
  // The seed and the comparisons would tell the tables still playing what they hold.
  if (duplicate && duplicate->finished && finished) {
    out.set_seed(RoundDealSeed(data.tournament.deal_secret, round));
    for (v1::HandComparison& c : duplicate->comparisons) *out.add_comparisons() = std::move(c);
  }
  return out;
}

absl::StatusOr<v1::Standings> StandingsOf(const TournamentData& data, int through_round) {
  absl::StatusOr<v1::Tournament> settings = SettingsOf(data.tournament);
  if (!settings.ok()) return settings.status();
  v1::Standings out;
  out.set_tournament(absl::StrCat("tournaments/", data.tournament.tournament_id));
  const int through = through_round > 0 ? std::min(through_round, data.tournament.current_round)
                                        : data.tournament.current_round;
  out.set_through_round(through);
  if (AtTables(*settings)) return TableStandings(data, *settings, through);
  if (IsArena(*settings)) return ArenaStandings(data, *settings, through);
  const std::vector<const EntrantRow*> ranked = Ranked(data);
  auto fill = [&](v1::StandingRow& row, const EntrantRow& e) {
    row.set_entrant(e.number);
    row.set_display_name(e.display_name);
    row.set_pairing_number(e.pairing_number);
    row.set_withdrawn(e.withdrawn_round > 0);
  };
  if (settings->format() == v1::Tournament::KNOCKOUT) {
    absl::StatusOr<std::array<std::vector<int>, 2>> sides = SideSeats(*settings);
    if (!sides.ok()) return sides.status();
    out.add_columns("TIES");
    if (ranked.empty()) return out;
    absl::StatusOr<KnockoutView> ko = EvaluateKnockout(data, *settings, *sides);
    if (!ko.ok()) return ko.status();
    std::map<int, int> wins;  // by seed
    for (const t::TieState& tie : ko->state.ties) {
      if (tie.status == t::TieStatus::kDecided) ++wins[tie.winner];
    }
    std::map<int, int> place;
    for (const t::Placing& p : ko->state.placings) place[p.entrant] = p.place;
    // Still in first (rank 0: no place yet), by seed; then the placed, by place.
    std::vector<const EntrantRow*> order = ranked;
    std::stable_sort(order.begin(), order.end(), [&](const EntrantRow* a, const EntrantRow* b) {
      const int pa = place.count(a->pairing_number) ? place[a->pairing_number] : 0;
      const int pb = place.count(b->pairing_number) ? place[b->pairing_number] : 0;
      return pa < pb;
    });
    for (const EntrantRow* e : order) {
      v1::StandingRow& row = *out.add_rows();
      fill(row, *e);
      row.set_rank(place.count(e->pairing_number) ? place[e->pairing_number] : 0);
      row.set_points(wins[e->pairing_number]);
      row.add_values(wins[e->pairing_number]);
    }
    return out;
  }
  absl::StatusOr<t::EventRecord> event = EventRecordOf(data);
  if (!event.ok()) return event.status();
  std::vector<t::TieBreak> order = {t::TieBreak::kPoints};
  out.add_columns("PTS");
  for (const std::string& name : settings->tiebreaks()) {
    absl::StatusOr<t::TieBreak> tb = t::ParseTieBreak(name);
    if (!tb.ok()) return absl::InternalError("a stored tie-break is unknown");
    order.push_back(*tb);
    out.add_columns(std::string(t::TieBreakName(*tb)));
  }
  for (const t::StandingRow& s : t::Standings(*event, through, order)) {
    v1::StandingRow& row = *out.add_rows();
    fill(row, *ranked[s.tpn - 1]);
    row.set_rank(s.rank);
    row.set_points(s.points);
    for (double v : s.values) row.add_values(v);
  }
  if (IsLeague(*settings)) GroupByDivision(data, *settings, out);
  return out;
}

std::optional<absl::Time> NextDecisionTime(const TournamentData& data, absl::Time now) {
  if (data.tournament.state != kTournamentRunning) return std::nullopt;
  absl::StatusOr<v1::Tournament> settings = SettingsOf(data.tournament);
  if (!settings.ok()) return std::nullopt;
  if (IsLeague(*settings)) return LeagueNextTime(data, *settings, now);
  const std::optional<absl::Time> close = ArenaCloseTime(data.tournament, *settings);
  if (!close || *close <= now) return std::nullopt;
  return close;
}

}  // namespace boneyard::matchmaking
