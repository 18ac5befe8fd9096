#include "services/matchmaking/tournament_league.h"

#include <algorithm>
#include <array>
#include <map>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "services/common/engine_proto.h"
#include "services/common/validation.h"
#include "services/matchmaking/tournament/round_robin.h"
#include "services/matchmaking/tournament_plan.h"

namespace boneyard::matchmaking {
namespace {

namespace t = ::boneyard::tournament;

absl::Duration DeadlineOf(const v1::LeagueSettings& league) {
  return league.has_round_deadline() ? FromDuration(league.round_deadline())
                                     : FromDuration(league.round_interval());
}

const RoundRow* RoundRowOf(const TournamentData& data, int round) {
  if (round < 1 || round > static_cast<int>(data.rounds.size())) return nullptr;
  const RoundRow& r = data.rounds[round - 1];
  return r.round == round ? &r : nullptr;
}

// Each pairing's state, by (round, board), for the rounds opened so far.
std::map<std::pair<int, int>, PairingState> OpenedPairings(
    const TournamentData& data, const v1::Tournament& settings,
    const std::array<std::vector<int>, 2>& sides) {
  const std::map<std::pair<int, int>, std::vector<const GameRow*>> games = GamesByPairing(data);
  static const std::vector<const GameRow*> kNone;
  std::map<std::pair<int, int>, PairingState> out;
  for (const PairingRow& p : data.pairings) {
    if (p.round > data.tournament.current_round) continue;
    auto found = games.find({p.round, p.board});
    out[{p.round, p.board}] =
        EvaluatePairing(settings, p, found == games.end() ? kNone : found->second, sides);
  }
  return out;
}

}  // namespace

absl::Status CheckLeagueSettings(const v1::Tournament& s) {
  if (!IsLeague(s)) {
    if (s.has_league()) return InvalidSetting("league", "is for LEAGUE");
    return absl::OkStatus();
  }
  const v1::LeagueSettings& league = s.league();
  if (absl::Status st =
          validation::CheckDuration("tournament.league.round_interval", league.round_interval());
      !st.ok()) {
    return st;
  }
  const absl::Duration interval = FromDuration(league.round_interval());
  if (interval < kMinLeagueInterval || interval > kMaxLeagueInterval) {
    return InvalidSetting("league.round_interval", "must be 1 minute to 366 days");
  }
  if (league.has_round_deadline()) {
    if (absl::Status st =
            validation::CheckDuration("tournament.league.round_deadline", league.round_deadline());
        !st.ok()) {
      return st;
    }
    const absl::Duration deadline = FromDuration(league.round_deadline());
    if (deadline < kMinLeagueInterval || deadline > interval) {
      return InvalidSetting("league.round_deadline",
                            "must be 1 minute to the round interval (the rounds do not overlap)");
    }
  }
  if (league.has_first_round_time() &&
      (league.first_round_time().seconds() < 0 || league.first_round_time().nanos() < 0 ||
       league.first_round_time().nanos() > 999'999'999)) {
    return InvalidSetting("league.first_round_time", "is not a time");
  }
  if (league.division_size() != 0 &&
      (league.division_size() < 2 || league.division_size() > kMaxDivisionSize)) {
    return InvalidSetting("league.division_size",
                          absl::StrCat("must be 0 or 2 to ", kMaxDivisionSize));
  }
  if (league.promotion() < 0 || league.promotion() > league.division_size() / 2) {
    return InvalidSetting("league.promotion", "must be 0 to half the division size");
  }
  if (!league.previous_season().empty()) {
    if (absl::Status st = validation::CheckText("tournament.league.previous_season",
                                                league.previous_season(), 80);
        !st.ok()) {
      return st;
    }
  }
  if (s.rounds() != 0)
    return InvalidSetting("rounds", "a league's rounds follow from its divisions");
  if (s.table_size() != 0) return InvalidSetting("table_size", "a league is two-sided");
  if (s.duplicate()) return InvalidSetting("duplicate", "is for tables and PARTNER_ROTATION");
  if (s.manual_rounds())
    return InvalidSetting("manual_rounds", "a league's rounds open on their dates");
  return absl::OkStatus();
}

std::vector<int> DivisionSizes(int entrants, int division_size) {
  if (entrants <= 0) return {};
  int divisions = division_size > 0 ? (entrants + division_size - 1) / division_size : 1;
  divisions = std::max(1, std::min(divisions, entrants / 2));
  std::vector<int> sizes(divisions, entrants / divisions);
  for (int i = 0; i < entrants % divisions; ++i) ++sizes[i];
  return sizes;
}

int DivisionOf(const std::vector<int>& sizes, int pairing_number) {
  int last = 0;
  for (size_t d = 0; d < sizes.size(); ++d) {
    last += sizes[d];
    if (pairing_number <= last) return static_cast<int>(d) + 1;
  }
  return static_cast<int>(sizes.size());
}

absl::Time RoundDeadline(const v1::Tournament& settings, absl::Time opens) {
  return opens + DeadlineOf(settings.league());
}

absl::StatusOr<TournamentChanges> PlanLeagueStart(const TournamentData& data,
                                                  const v1::Tournament& settings, absl::Time now) {
  const v1::LeagueSettings& league = settings.league();
  // The ranking: the previous season's entrants in the order they were carried over (their
  // numbers), then the newcomers by rating.
  std::vector<const EntrantRow*> order;
  for (const EntrantRow& e : data.entrants) order.push_back(&e);
  auto carried = [&](const EntrantRow* e) { return e->number <= league.carried_entrants(); };
  std::stable_sort(order.begin(), order.end(), [&](const EntrantRow* a, const EntrantRow* b) {
    if (carried(a) != carried(b)) return carried(a);
    if (carried(a)) return a->number < b->number;
    return a->rating > b->rating;
  });
  TournamentChanges changes;
  for (size_t i = 0; i < order.size(); ++i) {
    changes.pairing_numbers[order[i]->number] = static_cast<int>(i) + 1;
    changes.first_rounds[order[i]->number] = 1;
  }
  // Every division's fixtures for the whole season, division 1's boards first in each round.
  const std::vector<int> sizes =
      DivisionSizes(static_cast<int>(order.size()), league.division_size());
  std::map<int, int> boards;  // round -> boards so far
  int rounds = 0;
  int first = 0;
  for (int size : sizes) {
    absl::StatusOr<std::vector<std::vector<t::Board>>> schedule =
        settings.double_round_robin() ? t::DoubleRoundRobin(size) : t::BergerSchedule(size);
    if (!schedule.ok()) return schedule.status();
    rounds = std::max(rounds, static_cast<int>(schedule->size()));
    for (size_t r = 0; r < schedule->size(); ++r) {
      const int round = static_cast<int>(r) + 1;
      for (const t::Board& b : (*schedule)[r]) {
        PairingRow p;
        p.round = round;
        p.board = ++boards[round];
        p.white = order[first + b.white - 1]->number;
        p.black = b.black == 0 ? 0 : order[first + b.black - 1]->number;
        if (p.black == 0) p.override_outcome = v1::BYE;
        changes.new_pairings.push_back(std::move(p));
      }
    }
    first += size;
  }
  std::stable_sort(changes.new_pairings.begin(), changes.new_pairings.end(),
                   [](const PairingRow& a, const PairingRow& b) { return a.round < b.round; });
  // The calendar: from the first round's time (the start when unset or past).
  const absl::Time base =
      league.has_first_round_time() ? std::max(now, FromTimestamp(league.first_round_time())) : now;
  const absl::Duration interval = FromDuration(league.round_interval());
  for (int round = 1; round <= rounds; ++round) {
    changes.new_rounds.push_back({.round = round, .start_time = base + (round - 1) * interval});
  }
  changes.rounds = rounds;
  changes.state = kTournamentRunning;
  changes.start_time = now;
  // Then whatever is due now, as the director would decide it.
  TournamentData started = data;
  for (EntrantRow& e : started.entrants) {
    e.pairing_number = changes.pairing_numbers[e.number];
    e.first_round = 1;
  }
  started.tournament.state = kTournamentRunning;
  started.tournament.rounds = rounds;
  started.tournament.start_time = now;
  started.rounds = changes.new_rounds;
  started.pairings = changes.new_pairings;
  absl::StatusOr<TournamentChanges> due = PlanLeagueStep(started, settings, now);
  if (!due.ok()) return due.status();
  changes.current_round = due->current_round;
  changes.new_games = std::move(due->new_games);
  changes.overrides = std::move(due->overrides);
  for (AuditRow& a : due->audit) changes.audit.push_back(std::move(a));
  return changes;
}

absl::StatusOr<TournamentChanges> PlanLeagueStep(const TournamentData& data,
                                                 const v1::Tournament& settings, absl::Time now) {
  absl::StatusOr<std::array<std::vector<int>, 2>> sides = SideSeats(settings);
  if (!sides.ok()) return sides.status();
  const int current = data.tournament.current_round;
  const std::map<std::pair<int, int>, PairingState> opened = OpenedPairings(data, settings, *sides);
  TournamentChanges changes;
  // Close: a fixture without a result at its round's deadline is lost by both.
  for (const auto& [key, state] : opened) {
    if (state.decided()) continue;
    const RoundRow* round = RoundRowOf(data, key.first);
    if (round == nullptr || now < RoundDeadline(settings, round->start_time)) continue;
    changes.overrides[key] = v1::BOTH_FORFEITED;
    changes.audit.push_back({"director", "deadline",
                             absl::StrCat("round ", key.first, " board ", key.second,
                                          ": no result by the round's deadline")});
  }
  // Open the rounds due: their games, or a withdrawn entrant's forfeit.
  int open = current;
  while (open < data.tournament.rounds) {
    const RoundRow* next = RoundRowOf(data, open + 1);
    if (next == nullptr || now < next->start_time) break;
    ++open;
    for (const PairingRow& p : data.pairings) {
      if (p.round != open || p.black == 0) continue;
      const int forfeit =
          ForfeitFor(*EntrantByNumber(data, p.white), *EntrantByNumber(data, p.black), open);
      if (forfeit != 0) {
        changes.overrides[{p.round, p.board}] = forfeit;
      } else {
        changes.new_games.push_back(NewTwoSidedGame(data, settings, *sides, p, 1, true, now));
      }
    }
  }
  if (open != current) changes.current_round = open;
  if (!changes.empty() || current < data.tournament.rounds) return changes;
  const bool decided = std::all_of(opened.begin(), opened.end(),
                                   [](const auto& entry) { return entry.second.decided(); });
  if (decided) {
    changes.state = kTournamentFinished;
    changes.end_time = now;
  }
  return changes;
}

std::optional<absl::Time> LeagueNextTime(const TournamentData& data, const v1::Tournament& settings,
                                         absl::Time now) {
  std::optional<absl::Time> next;
  auto consider = [&](absl::Time when) {
    if (when > now && (!next || when < *next)) next = when;
  };
  const int current = data.tournament.current_round;
  if (const RoundRow* r = RoundRowOf(data, current + 1)) consider(r->start_time);
  // The deadlines of the rounds with a fixture still to be decided.
  absl::StatusOr<std::array<std::vector<int>, 2>> sides = SideSeats(settings);
  if (!sides.ok()) return next;
  for (const auto& [key, state] : OpenedPairings(data, settings, *sides)) {
    const RoundRow* r = RoundRowOf(data, key.first);
    if (!state.decided() && r != nullptr) consider(RoundDeadline(settings, r->start_time));
  }
  return next;
}

void GroupByDivision(const TournamentData& data, const v1::Tournament& settings,
                     v1::Standings& standings) {
  const std::vector<int> sizes =
      DivisionSizes(static_cast<int>(Ranked(data).size()), settings.league().division_size());
  std::vector<v1::StandingRow> rows(standings.rows().begin(), standings.rows().end());
  for (v1::StandingRow& row : rows) row.set_division(DivisionOf(sizes, row.pairing_number()));
  std::stable_sort(rows.begin(), rows.end(),
                   [](const v1::StandingRow& a, const v1::StandingRow& b) {
                     return a.division() < b.division();
                   });
  // Ranks within a division: the rows keep the standings' order, ties sharing a rank.
  for (size_t i = 0, in_division = 0; i < rows.size(); ++i) {
    const bool same = i > 0 && rows[i - 1].division() == rows[i].division();
    in_division = same ? in_division + 1 : 0;
    const bool tied = same && std::equal(rows[i].values().begin(), rows[i].values().end(),
                                         rows[i - 1].values().begin(), rows[i - 1].values().end());
    rows[i].set_rank(tied ? rows[i - 1].rank() : static_cast<int>(in_division) + 1);
  }
  standings.clear_rows();
  for (v1::StandingRow& row : rows) *standings.add_rows() = std::move(row);
}

absl::StatusOr<std::vector<EntrantRow>> NextSeasonEntrants(const TournamentData& previous,
                                                           int promotion, absl::Time now) {
  absl::StatusOr<v1::Standings> standings = StandingsOf(previous, 0);
  if (!standings.ok()) return standings.status();
  std::map<int, std::vector<int>> divisions;  // division -> entrant numbers, best first
  for (const v1::StandingRow& row : standings->rows()) {
    if (!row.withdrawn()) divisions[row.division()].push_back(row.entrant());
  }
  std::vector<std::vector<int>> lists;
  for (auto& [division, members] : divisions) lists.push_back(std::move(members));
  // Between each division and the next, the same number each way, at most half of either (so
  // nobody is both promoted and relegated).
  const size_t k = lists.size();
  std::vector<size_t> moves(k, 0);  // moves[d]: between lists[d] and lists[d + 1]
  for (size_t d = 0; d + 1 < k; ++d) {
    moves[d] = std::min({static_cast<size_t>(std::max(0, promotion)), lists[d].size() / 2,
                         lists[d + 1].size() / 2});
  }
  std::vector<int> order;
  for (size_t d = 0; d < k; ++d) {
    const std::vector<int>& members = lists[d];
    const size_t up = d > 0 ? moves[d - 1] : 0;  // its top ones go up
    const size_t down = moves[d];                // its bottom ones go down
    if (d > 0) {                                 // relegated from above, at the top
      const std::vector<int>& above = lists[d - 1];
      order.insert(order.end(), above.end() - moves[d - 1], above.end());
    }
    order.insert(order.end(), members.begin() + up, members.end() - down);
    if (d + 1 < k) {  // promoted from below, at the bottom
      order.insert(order.end(), lists[d + 1].begin(), lists[d + 1].begin() + down);
    }
  }
  std::vector<EntrantRow> out;
  for (int number : order) {
    const EntrantRow* e = EntrantByNumber(previous, number);
    if (e == nullptr) return absl::InternalError("a standing's entrant is not stored");
    EntrantRow carried;
    carried.number = static_cast<int>(out.size()) + 1;
    carried.display_name = e->display_name;
    carried.players = e->players;
    carried.bot = e->bot;
    carried.rating = e->rating;
    carried.register_time = now;
    out.push_back(std::move(carried));
  }
  return out;
}

}  // namespace boneyard::matchmaking
