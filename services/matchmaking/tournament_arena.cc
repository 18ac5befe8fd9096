#include "services/matchmaking/tournament_arena.h"

#include <algorithm>
#include <array>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "services/common/engine_proto.h"
#include "services/common/validation.h"
#include "services/matchmaking/tournament_plan.h"

namespace boneyard::matchmaking {
namespace {

namespace t = ::boneyard::tournament;

bool Won(v1::Outcome o, bool white) {
  return white ? (o == v1::WHITE_WON || o == v1::BLACK_FORFEITED)
               : (o == v1::BLACK_WON || o == v1::WHITE_FORFEITED);
}

bool Forfeited(v1::Outcome o, bool white) {
  return o == v1::BOTH_FORFEITED || o == (white ? v1::WHITE_FORFEITED : v1::BLACK_FORFEITED);
}

}  // namespace

absl::Status CheckArenaSettings(const v1::Tournament& s) {
  if (!IsArena(s)) {
    if (s.has_duration()) return InvalidSetting("duration", "is for ARENA");
    return absl::OkStatus();
  }
  if (!s.has_duration()) return InvalidSetting("duration", "an arena needs its duration");
  if (absl::Status st = validation::CheckDuration("tournament.duration", s.duration()); !st.ok()) {
    return st;
  }
  const absl::Duration d = FromDuration(s.duration());
  if (d < kMinArenaDuration || d > kMaxArenaDuration) {
    return InvalidSetting("duration", "must be 1 minute to 24 hours");
  }
  if (s.rounds() != 0)
    return InvalidSetting("rounds", "an arena pairs until its time is up; leave it 0");
  if (s.table_size() != 0) return InvalidSetting("table_size", "an arena is two-sided");
  if (s.duplicate()) return InvalidSetting("duplicate", "is for tables and PARTNER_ROTATION");
  if (s.manual_rounds()) return InvalidSetting("manual_rounds", "an arena pairs as games end");
  if (s.tiebreaks_size() != 0) {
    return InvalidSetting("tiebreaks", "an arena ranks by its own points, then fewer games");
  }
  return absl::OkStatus();
}

std::optional<absl::Time> ArenaCloseTime(const TournamentRow& row, const v1::Tournament& settings) {
  if (!IsArena(settings) || !row.start_time) return std::nullopt;
  return *row.start_time + FromDuration(settings.duration());
}

std::map<int, ArenaEntrant> EvaluateArena(const TournamentData& data,
                                          const v1::Tournament& settings, int through) {
  std::map<int, ArenaEntrant> out;
  for (const EntrantRow& e : data.entrants) out[e.number];
  absl::StatusOr<std::array<std::vector<int>, 2>> sides = SideSeats(settings);
  if (!sides.ok()) return out;  // checked at creation: a stored arena has its sides
  const std::map<std::pair<int, int>, std::vector<const GameRow*>> games = GamesByPairing(data);
  std::map<int, std::vector<t::ArenaOutcome>> outcomes;
  static const std::vector<const GameRow*> kNone;
  for (const PairingRow& p : data.pairings) {  // by round, board: each entrant's games in order
    if (through > 0 && p.round > through) break;
    auto found = games.find({p.round, p.board});
    const PairingState s =
        EvaluatePairing(settings, p, found == games.end() ? kNone : found->second, *sides);
    ArenaEntrant& white = out[p.white];
    ArenaEntrant& black = out[p.black];
    ++white.whites;
    white.last_opponent = p.black;
    black.last_opponent = p.white;
    if (!s.decided()) {
      white.playing = black.playing = true;
      continue;
    }
    for (const bool is_white : {true, false}) {
      ArenaEntrant& e = is_white ? white : black;
      e.left = e.left || Forfeited(s.outcome, is_white);
      outcomes[is_white ? p.white : p.black].push_back(
          Won(s.outcome, is_white) ? t::ArenaOutcome::kWin
          : s.outcome == v1::DRAWN ? t::ArenaOutcome::kDraw
                                   : t::ArenaOutcome::kLoss);
    }
  }
  for (auto& [number, games_of] : outcomes) out[number].score = t::ScoreArena(games_of);
  return out;
}

absl::StatusOr<TournamentChanges> PlanArenaStep(const TournamentData& data,
                                                const v1::Tournament& settings, absl::Time now) {
  TournamentChanges changes;
  const std::map<int, ArenaEntrant> standing = EvaluateArena(data, settings);
  const std::optional<absl::Time> close = ArenaCloseTime(data.tournament, settings);
  if (close && now >= *close) {
    const bool playing = std::any_of(standing.begin(), standing.end(),
                                     [](const auto& e) { return e.second.playing; });
    if (playing) return changes;  // the games under way finish and count
    changes.state = kTournamentFinished;
    changes.end_time = now;
    changes.rounds = data.tournament.current_round;
    return changes;
  }
  const int round = data.tournament.current_round + 1;
  if (HasLateEntrants(data)) NumberEntrants(data, round, changes);
  std::vector<t::ArenaCandidate> idle;
  for (const EntrantRow& e : data.entrants) {
    const ArenaEntrant& s = standing.at(e.number);
    if (s.playing || s.left || WithdrawnBy(e, round)) continue;
    idle.push_back({.id = e.number,
                    .points = s.score.points,
                    .rating = e.rating,
                    .last_opponent = s.last_opponent});
  }
  const std::vector<std::pair<int, int>> pairs = t::PairArena(std::move(idle));
  if (pairs.empty()) return changes;
  absl::StatusOr<std::array<std::vector<int>, 2>> sides = SideSeats(settings);
  if (!sides.ok()) return sides.status();
  for (const auto& [higher, lower] : pairs) {
    const bool higher_white = standing.at(higher).whites <= standing.at(lower).whites;
    PairingRow p{.round = round,
                 .board = static_cast<int>(changes.new_pairings.size()) + 1,
                 .white = higher_white ? higher : lower,
                 .black = higher_white ? lower : higher,
                 .tie = "",
                 .tie_id = -1,
                 .override_outcome = 0,
                 .table = {}};
    changes.new_games.push_back(NewTwoSidedGame(data, settings, *sides, p, 1, true, now));
    changes.new_pairings.push_back(std::move(p));
  }
  changes.new_rounds.push_back({.round = round, .start_time = now});
  changes.current_round = round;
  changes.rounds = round;
  return changes;
}

v1::Standings ArenaStandings(const TournamentData& data, const v1::Tournament& settings,
                             int through) {
  v1::Standings out;
  out.set_tournament(absl::StrCat("tournaments/", data.tournament.tournament_id));
  out.set_through_round(through);
  for (const char* column : {"PTS", "GAMES", "WINS", "STREAK"}) out.add_columns(column);
  const std::map<int, ArenaEntrant> standing = EvaluateArena(data, settings, through);
  std::vector<const EntrantRow*> order;
  for (const EntrantRow& e : data.entrants) order.push_back(&e);
  auto key = [&](const EntrantRow* e) {
    const t::ArenaScore& s = standing.at(e->number).score;
    return std::make_pair(-s.points, s.games);
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](const EntrantRow* a, const EntrantRow* b) { return key(a) < key(b); });
  for (size_t i = 0; i < order.size(); ++i) {
    const EntrantRow& e = *order[i];
    const t::ArenaScore& s = standing.at(e.number).score;
    v1::StandingRow& row = *out.add_rows();
    row.set_rank(i > 0 && key(order[i - 1]) == key(order[i]) ? out.rows(i - 1).rank()
                                                             : static_cast<int>(i) + 1);
    row.set_entrant(e.number);
    row.set_display_name(e.display_name);
    row.set_pairing_number(e.pairing_number);
    row.set_withdrawn(e.withdrawn_round > 0);
    row.set_points(s.points);
    for (int v : {s.points, s.games, s.wins, s.streak}) row.add_values(v);
    for (int points : s.sheet) row.add_sheet(points);
  }
  return out;
}

}  // namespace boneyard::matchmaking
