#include "services/matchmaking/tournament_tables.h"

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "engine/core/registry.h"
#include "services/common/engine_proto.h"
#include "services/matchmaking/tournament/partner_rotation.h"
#include "services/matchmaking/tournament/round_robin.h"
#include "services/matchmaking/tournament/swiss_tables.h"
#include "services/matchmaking/tournament_duplicate.h"
#include "services/matchmaking/tournament_plan.h"

namespace boneyard::matchmaking {
namespace {

namespace t = ::boneyard::tournament;

bool HasPlayersOption(const GameSpec& spec) {
  return std::any_of(spec.options.begin(), spec.options.end(),
                     [](const OptionSpec& o) { return o.name == "players"; });
}

// The event's game and its rule values, or INVALID_ARGUMENT naming tournament.game or
// tournament.rules.
struct EventRules {
  const GameSpec* spec = nullptr;
  std::map<std::string, OptionValue> values;
};
absl::StatusOr<EventRules> RulesOf(const v1::Tournament& settings) {
  const GameSpec* spec = DefaultRegistry().Find(settings.game());
  if (spec == nullptr) return InvalidSetting("game", "unknown game");
  absl::StatusOr<std::map<std::string, OptionValue>> values =
      RuleValuesFromProto(settings.rules(), *spec);
  if (!values.ok()) return InvalidSetting("rules", values.status().message());
  return EventRules{spec, *std::move(values)};
}

// OK when the game under the event's rules seats `seats` players, each alone.
absl::Status SeatsAlone(const v1::Tournament& settings, int seats) {
  absl::StatusOr<EventRules> rules = RulesOf(settings);
  if (!rules.ok()) return rules.status();
  if (HasPlayersOption(*rules->spec)) rules->values["players"] = static_cast<int64_t>(seats);
  absl::StatusOr<std::shared_ptr<const Game>> game =
      DefaultRegistry().CreateGame(rules->spec->name, rules->values);
  if (!game.ok() || (*game)->num_seats() != seats || !(*game)->teams().empty()) {
    return InvalidSetting("table_size",
                          absl::StrCat(settings.game(), " under these rules does not seat ", seats,
                                       " players each alone"));
  }
  return absl::OkStatus();
}

int MinTableSize(const v1::Tournament& settings) {
  return settings.min_table_size() > 0 ? settings.min_table_size() : settings.table_size();
}

// The schedule's seed: the event's id, hashed the same way everywhere (FNV-1a).
uint64_t SeedOf(const std::string& tournament_id) {
  uint64_t h = 14695981039346656037ull;
  for (unsigned char c : tournament_id) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

PairingRow SitOut(int round, int board, int number) {
  PairingRow p;
  p.round = round;
  p.board = board;
  p.table = {number};
  p.override_outcome = v1::BYE;
  return p;
}

// Points by place for a table of `seats`: placement_points, or one per entrant placed below.
double PointsForPlace(const v1::Tournament& settings, int seats, int place) {
  if (settings.placement_points_size() == 0) return seats - place;
  return place <= settings.placement_points_size() ? settings.placement_points(place - 1) : 0;
}

absl::Status CheckPlacementPoints(const v1::Tournament& s) {
  if (s.placement_points_size() != 0 && s.placement_points_size() != s.table_size()) {
    return InvalidSetting(
        "placement_points",
        absl::StrCat("has ", s.placement_points_size(), " values for tables of ", s.table_size()));
  }
  for (double p : s.placement_points()) {
    if (!(p >= 0 && p <= 1000)) return InvalidSetting("placement_points", "must be 0 to 1000");
  }
  for (const std::string& name : s.tiebreaks()) {
    if (name != "WIN" && name != "GP") {
      return InvalidSetting("tiebreaks", "tables rank by points, then WIN and GP");
    }
  }
  return absl::OkStatus();
}

// A duplicate solitaire: every entrant alone at a "table" of one, all dealt the same.
absl::Status CheckSolitaire(const v1::Tournament& s) {
  if (!s.duplicate() || s.format() != v1::Tournament::ROUND_ROBIN) {
    return InvalidSetting("table_size", "1 is for a duplicate ROUND_ROBIN of a solitaire");
  }
  if (absl::Status st = SeatsAlone(s, 1); !st.ok()) return st;
  if (s.min_table_size() > 1) return InvalidSetting("min_table_size", "a solitaire seats one");
  if (s.rounds() < 1 || s.rounds() > t::kMaxTableRounds) {
    return InvalidSetting("rounds", absl::StrCat("a solitaire event needs 1 to ",
                                                 t::kMaxTableRounds, " rounds"));
  }
  if (s.placement_points_size() > 0) {
    return InvalidSetting("placement_points", "a solitaire scores by matchpoints");
  }
  for (const std::string& name : s.tiebreaks()) {
    if (name != "GP") return InvalidSetting("tiebreaks", "a solitaire ranks by points, then GP");
  }
  return absl::OkStatus();
}

absl::Status CheckPartnerRotation(const v1::Tournament& s) {
  if (s.team_size() > 1) {
    return InvalidSetting("team_size", "partner rotation is for individuals: it makes the teams");
  }
  if (s.double_round_robin()) {
    return InvalidSetting("double_round_robin", "is for two-sided round robins; set rounds");
  }
  absl::StatusOr<int> team = PartnerTeamSize(s);
  if (!team.ok()) return team.status();
  const int seats = 2 * *team;
  if (s.table_size() != 0 && s.table_size() != seats) {
    return InvalidSetting("table_size",
                          absl::StrCat("is the game's ", seats, " seats (leave it 0)"));
  }
  if (s.min_table_size() != 0 && s.min_table_size() != seats) {
    return InvalidSetting("min_table_size", absl::StrCat("every table has the game's ", seats,
                                                         " seats (leave it 0)"));
  }
  if (s.rounds() < 0 || s.rounds() > t::kMaxPartnerRotationRounds) {
    return InvalidSetting("rounds", absl::StrCat("must be 0 to ", t::kMaxPartnerRotationRounds));
  }
  if (s.max_entrants() > t::kMaxPartnerRotationPlayers) {
    return InvalidSetting("max_entrants", absl::StrCat("partner rotation takes at most ",
                                                       t::kMaxPartnerRotationPlayers));
  }
  v1::Tournament sized = s;
  sized.set_table_size(seats);
  return CheckPlacementPoints(sized);
}

}  // namespace

absl::StatusOr<int> PartnerTeamSize(const v1::Tournament& settings) {
  absl::StatusOr<EventRules> rules = RulesOf(settings);
  if (!rules.ok()) return rules.status();
  absl::StatusOr<std::shared_ptr<const Game>> game =
      DefaultRegistry().CreateGame(rules->spec->name, rules->values);
  if (!game.ok()) return InvalidSetting("rules", game.status().message());
  const Teams& teams = (*game)->teams();
  bool alternating = teams.size() == 2 && teams[0].size() == teams[1].size() &&
                     teams[0].size() >= 2 && teams[0].size() <= t::kMaxPartnerTeamSize;
  for (size_t i = 0; alternating && i < 2; ++i) {
    for (int seat : teams[i]) alternating = alternating && seat % 2 == teams[i][0] % 2;
  }
  if (!alternating || teams[0][0] % 2 == teams[1][0] % 2) {
    return InvalidSetting("game", absl::StrCat(settings.game(),
                                               " under these rules is not played by two teams "
                                               "of partners (Forty-Two, Eighty-Four, Muggins "
                                               "with teams)"));
  }
  return static_cast<int>(teams[0].size());
}

void NormalizePartnerRotation(v1::Tournament& settings) {
  if (!IsPartnerRotation(settings)) return;
  absl::StatusOr<int> team = PartnerTeamSize(settings);
  if (!team.ok()) return;
  settings.set_table_size(2 * *team);
  if (settings.max_entrants() == 0) settings.set_max_entrants(t::kMaxPartnerRotationPlayers);
  if (settings.placement_points_size() == 0) {
    for (int place = 0; place < 2 * *team; ++place) {
      settings.add_placement_points(place < *team ? 1 : 0);
    }
  }
}

absl::Status CheckTableSettings(const v1::Tournament& s) {
  if (IsPartnerRotation(s)) return CheckPartnerRotation(s);
  if (s.format() != v1::Tournament::ROUND_ROBIN && s.format() != v1::Tournament::SWISS) {
    return InvalidSetting("table_size", "tables are for ROUND_ROBIN and SWISS");
  }
  if (s.team_size() > 1) return InvalidSetting("team_size", "at tables everyone plays alone");
  if (s.double_round_robin()) {
    return InvalidSetting("double_round_robin", "is for two-sided round robins; set rounds");
  }
  if (IsSolitaire(s)) return CheckSolitaire(s);
  if (s.table_size() < 2 || s.table_size() > t::kMaxTableSize) {
    return InvalidSetting("table_size", absl::StrCat("must be 2 to ", t::kMaxTableSize));
  }
  if (s.min_table_size() < 0 || s.min_table_size() == 1 || s.min_table_size() > s.table_size()) {
    return InvalidSetting("min_table_size", "must be 2 to table_size (0: table_size)");
  }
  if (s.duplicate() && s.min_table_size() != 0 && s.min_table_size() != s.table_size()) {
    return InvalidSetting("min_table_size",
                          "a duplicate event's tables are full, to be dealt the same (leave it 0)");
  }
  if (s.rounds() < 0 || s.rounds() > t::kMaxTableRounds) {
    return InvalidSetting("rounds", absl::StrCat("at tables, 0 to ", t::kMaxTableRounds));
  }
  for (int seats = MinTableSize(s); seats <= s.table_size(); ++seats) {
    if (absl::Status st = SeatsAlone(s, seats); !st.ok()) return st;
  }
  return CheckPlacementPoints(s);
}

int TableRounds(const v1::Tournament& settings, int entrants) {
  if (settings.rounds() > 0) return settings.rounds();
  if (IsPartnerRotation(settings)) {
    return std::clamp(t::DefaultPartnerRounds(entrants, settings.table_size() / 2), 1,
                      t::kMaxPartnerRotationRounds);
  }
  const int others = settings.table_size() - 1;
  return std::clamp((entrants - 1 + others - 1) / others, 1, t::kMaxTableRounds);
}

// Round `round` of the round robin's schedule, as pairing numbers.
absl::StatusOr<t::TableRound> ScheduledTablesOf(const TournamentData& data,
                                                const v1::Tournament& settings, int round) {
  const int entrants = static_cast<int>(Ranked(data).size());
  if (entrants < MinTableSize(settings)) {
    return absl::FailedPreconditionError(absl::StrCat(
        "tables of ", MinTableSize(settings), " need as many entrants; there are ", entrants));
  }
  absl::StatusOr<std::vector<t::TableRound>> schedule =
      t::TableSchedule({.entrants = entrants,
                        .table_size = settings.table_size(),
                        .min_table_size = MinTableSize(settings),
                        .rounds = data.tournament.rounds,
                        .seed = SeedOf(data.tournament.tournament_id)});
  if (!schedule.ok()) return schedule.status();
  return (*schedule)[round - 1];
}

// A Swiss round at tables, as pairing numbers: seated by the standings after the rounds before
// (swiss_tables.h), apart from whoever each has shared a table with, the withdrawn left out.
absl::StatusOr<t::TableRound> SwissTablesOf(const TournamentData& data,
                                            const v1::Tournament& settings, int round) {
  std::map<int, int> sit_outs;  // entrant number -> rounds sat out
  t::SwissTablesSpec spec;
  spec.table_size = settings.table_size();
  spec.min_table_size = MinTableSize(settings);
  for (const PairingRow& p : data.pairings) {
    if (p.round >= round) continue;
    if (p.table.size() == 1) ++sit_outs[p.table[0]];
    for (size_t i = 0; i < p.table.size(); ++i) {
      for (size_t j = i + 1; j < p.table.size(); ++j) {
        spec.met.emplace_back(EntrantByNumber(data, p.table[i])->pairing_number,
                              EntrantByNumber(data, p.table[j])->pairing_number);
      }
    }
  }
  const v1::Standings standings = TableStandings(data, settings, round - 1);
  for (const v1::StandingRow& row : standings.rows()) {
    const EntrantRow& e = *EntrantByNumber(data, row.entrant());
    if (!WithdrawnBy(e, round)) spec.standings.push_back({e.pairing_number, sit_outs[e.number]});
  }
  if (static_cast<int>(spec.standings.size()) < spec.min_table_size) {
    return absl::FailedPreconditionError(absl::StrCat("tables of ", spec.min_table_size,
                                                      " need as many entrants; there are ",
                                                      spec.standings.size()));
  }
  absl::StatusOr<t::SwissTablesRound> seated = t::PairSwissTables(spec);
  if (!seated.ok()) return seated.status();
  return t::TableRound{.tables = seated->tables, .sitting_out = seated->sitting_out};
}

// Round `round` of the partner rotation's schedule, as pairing numbers in seat order: the two
// teams alternating, team_a first.
absl::StatusOr<t::TableRound> PartnerTablesOf(const TournamentData& data,
                                              const v1::Tournament& settings, int round) {
  const int entrants = static_cast<int>(Ranked(data).size());
  if (entrants < settings.table_size()) {
    return absl::FailedPreconditionError(
        absl::StrCat("partner rotation needs a full table: ", settings.table_size(),
                     " entrants; there are ", entrants));
  }
  absl::StatusOr<t::PartnerSchedule> schedule =
      t::PartnerRotationSchedule({.players = entrants,
                                  .team_size = settings.table_size() / 2,
                                  .rounds = data.tournament.rounds,
                                  .seed = SeedOf(data.tournament.tournament_id)});
  if (!schedule.ok()) return schedule.status();
  const t::PartnerRound& scheduled = schedule->rounds[round - 1];
  t::TableRound out{.tables = {}, .sitting_out = scheduled.sitting_out};
  for (const t::PartnerTable& table : scheduled.tables) {
    std::vector<int> seats;
    for (size_t i = 0; i < table.team_a.size(); ++i) {
      seats.push_back(table.team_a[i]);
      seats.push_back(table.team_b[i]);
    }
    out.tables.push_back(std::move(seats));
  }
  return out;
}

absl::StatusOr<t::TableRound> TablesOf(const TournamentData& data, const v1::Tournament& settings,
                                       int round) {
  if (IsPartnerRotation(settings)) return PartnerTablesOf(data, settings, round);
  if (IsSolitaire(settings)) {
    t::TableRound alone;
    const int entrants = static_cast<int>(Ranked(data).size());
    for (int tpn = 1; tpn <= entrants; ++tpn) alone.tables.push_back({tpn});
    return alone;
  }
  if (settings.format() == v1::Tournament::SWISS) return SwissTablesOf(data, settings, round);
  return ScheduledTablesOf(data, settings, round);
}

absl::Status PairTables(const TournamentData& data, const v1::Tournament& settings, int round,
                        absl::Time now, TournamentChanges& changes) {
  const std::vector<const EntrantRow*> ranked = Ranked(data);
  absl::StatusOr<t::TableRound> round_tables = TablesOf(data, settings, round);
  if (!round_tables.ok()) return round_tables.status();
  const t::TableRound& tables = *round_tables;
  std::vector<PairingRow> pairings;
  std::vector<int> sitting_out;
  const SeatCounts held = settings.duplicate() ? SeatCountsBefore(data, round) : SeatCounts();
  for (const std::vector<int>& table : tables.tables) {
    const int k = static_cast<int>(table.size());
    std::vector<int> seated;  // entrant numbers in seat order, the withdrawn left out
    for (int i = 0; i < k; ++i) {
      const EntrantRow& e = *ranked[table[(i + round - 1) % k] - 1];
      if (!WithdrawnBy(e, round)) seated.push_back(e.number);
    }
    // A partnership game needs every seat; the others play on with fewer where the game can.
    const bool playable =
        IsPartnerRotation(settings) ? static_cast<int>(seated.size()) == k
        : IsSolitaire(settings)     ? seated.size() == 1
                                    : seated.size() >= 2 &&
                                      SeatsAlone(settings, static_cast<int>(seated.size())).ok();
    if (!playable) {
      sitting_out.insert(sitting_out.end(), seated.begin(), seated.end());
      continue;
    }
    PairingRow p;
    p.round = round;
    p.board = static_cast<int>(pairings.size()) + 1;
    // Duplicate: nobody keeps one seat's deal round after round.
    p.table = settings.duplicate() ? BalancedSeats(held, settings, seated) : std::move(seated);
    pairings.push_back(std::move(p));
  }
  if (settings.duplicate() && round == 1 && pairings.size() < 2) {
    return absl::FailedPreconditionError(absl::StrCat(
        "a duplicate event needs two full tables at least (", 2 * settings.table_size(),
        " entrants) to compare those who held the same tiles"));
  }
  for (int tpn : tables.sitting_out) {
    const EntrantRow& e = *ranked[tpn - 1];
    if (!WithdrawnBy(e, round)) sitting_out.push_back(e.number);
  }
  std::sort(sitting_out.begin(), sitting_out.end());
  for (int number : sitting_out) {
    pairings.push_back(SitOut(round, static_cast<int>(pairings.size()) + 1, number));
  }
  const GameSpec* spec = DefaultRegistry().Find(settings.game());
  // A duplicate round: every table is dealt from the round's seed, and the round's matches are
  // one deal group.
  const bool duplicate = settings.duplicate();
  if (duplicate && data.tournament.deal_secret.empty()) {
    return absl::InternalError(absl::StrCat("tournaments/", data.tournament.tournament_id,
                                            " is duplicate but has no deal secret"));
  }
  const int group_size = static_cast<int>(std::count_if(
      pairings.begin(), pairings.end(), [](const PairingRow& p) { return p.override_outcome == 0; }));
  const uint64_t seed = duplicate ? RoundDealSeed(data.tournament.deal_secret, round) : 0;
  for (const PairingRow& p : pairings) {
    if (p.override_outcome == 0) {
      const int seats = static_cast<int>(p.table.size());
      changes.new_games.push_back(NewGame(
          data, settings, p, 1, true, seats,
          [&](v1::CreateMatchRequest& request) {
            if (spec != nullptr && HasPlayersOption(*spec)) {
              (*request.mutable_rules())["players"].set_int_value(seats);
            }
            for (int seat = 0; seat < seats; ++seat) {
              FillSeats(*EntrantByNumber(data, p.table[seat]), {seat}, request);
            }
            if (duplicate) {
              request.set_seed(seed);
              v1::DealGroup& group = *request.mutable_deal_group();
              group.set_name(DealGroupName(data.tournament.tournament_id, round));
              group.set_size(group_size);
            }
          },
          now));
    }
    changes.new_pairings.push_back(p);
  }
  return absl::OkStatus();
}

TableState EvaluateTable(const v1::Tournament& settings, const PairingRow& pairing,
                         const std::vector<const GameRow*>& games) {
  TableState state;
  const int seats = static_cast<int>(pairing.table.size());
  if (pairing.override_outcome == v1::BYE || seats < 2) {
    state.outcome = v1::BYE;
    state.places.assign(seats, 0);
    state.points.assign(seats, 0);
    return state;
  }
  if (games.empty() || games.back()->result.empty()) return state;
  v1::MatchResult result;
  if (!result.ParseFromString(games.back()->result) || result.ranks_size() < seats) return state;
  std::vector<bool> forfeited(seats, false);
  for (int s : result.forfeited_seats()) {
    if (s >= 0 && s < seats) forfeited[s] = true;
  }
  state.places = PlacesOf(result, seats);
  state.points.assign(seats, 0);
  state.game_points.assign(seats, 0);
  for (int i = 0; i < seats; ++i) {
    if (i < result.scores_size()) state.game_points[i] = result.scores(i);
    if (forfeited[i]) continue;
    // Ties share the mean of the places they span.
    const int tied = static_cast<int>(std::count_if(state.places.begin(), state.places.end(),
                                                    [&](int p) { return p == state.places[i]; }));
    double sum = 0;
    for (int p = state.places[i]; p < state.places[i] + tied; ++p) {
      sum += PointsForPlace(settings, seats, p);
    }
    state.points[i] = sum / tied;
  }
  state.outcome = v1::PLACED;
  return state;
}

std::vector<int> PlacesOf(const v1::MatchResult& result, int seats) {
  std::vector<bool> forfeited(seats, false);
  for (int s : result.forfeited_seats()) {
    if (s >= 0 && s < seats) forfeited[s] = true;
  }
  // Places among those who played: 1 + how many ranked strictly better; the forfeited last.
  std::vector<int> places(seats, seats);
  for (int i = 0; i < seats && i < result.ranks_size(); ++i) {
    if (forfeited[i]) continue;
    int place = 1;
    for (int j = 0; j < seats && j < result.ranks_size(); ++j) {
      if (j != i && !forfeited[j] && result.ranks(j) < result.ranks(i)) ++place;
    }
    places[i] = place;
  }
  return places;
}

std::map<int, TableState> EvaluateRoundTables(const TournamentData& data,
                                              const v1::Tournament& settings, int round) {
  if (settings.duplicate()) return EvaluateDuplicateRound(data, settings, round).tables;
  std::map<int, TableState> out;
  const std::map<int, std::vector<const GameRow*>> games = RoundGames(data, round);
  static const std::vector<const GameRow*> kNone;
  for (const PairingRow& p : data.pairings) {
    if (p.round != round) continue;
    auto it = games.find(p.board);
    out[p.board] = EvaluateTable(settings, p, it == games.end() ? kNone : it->second);
  }
  return out;
}

v1::PairCounts PairCountsOf(const TournamentData& data) {
  v1::PairCounts out;
  std::map<int, int> index;  // entrant number -> row
  for (const EntrantRow& e : data.entrants) index[e.number] = 0;
  for (auto& [number, row] : index) {
    row = out.entrants_size();
    out.add_entrants(number);
  }
  const int n = out.entrants_size();
  out.mutable_partners()->Resize(n * n, 0);
  out.mutable_opponents()->Resize(n * n, 0);
  for (const PairingRow& p : data.pairings) {
    for (size_t i = 0; i < p.table.size(); ++i) {
      for (size_t j = 0; j < p.table.size(); ++j) {
        if (i == j) continue;
        // Seats alternate between the teams: the same parity, partners.
        auto& counts = (i % 2 == j % 2) ? *out.mutable_partners() : *out.mutable_opponents();
        ++counts[index[p.table[i]] * n + index[p.table[j]]];
      }
    }
  }
  return out;
}

bool LowerScoreWins(const v1::Tournament& settings) {
  absl::StatusOr<EventRules> rules = RulesOf(settings);
  if (!rules.ok()) return false;
  absl::StatusOr<std::shared_ptr<const Game>> game =
      DefaultRegistry().CreateGame(rules->spec->name, rules->values);
  return game.ok() && (*game)->score_order() == ScoreOrder::kLowerWins;
}

v1::Standings TableStandings(const TournamentData& data, const v1::Tournament& settings,
                             int through) {
  v1::Standings out;
  out.set_tournament(absl::StrCat("tournaments/", data.tournament.tournament_id));
  out.set_through_round(through);
  out.add_columns("PTS");
  for (const std::string& name : settings.tiebreaks()) out.add_columns(name);
  std::map<int, double> points;
  std::map<int, int> tables_won;
  std::map<int, double> game_points;  // each seat's own score in its games (GP)
  for (int round = 1; round <= through; ++round) {
    const std::map<int, TableState> tables = EvaluateRoundTables(data, settings, round);
    for (const PairingRow& p : data.pairings) {
      if (p.round != round) continue;
      auto it = tables.find(p.board);
      if (it == tables.end() || it->second.outcome != v1::PLACED) continue;
      const TableState& s = it->second;
      for (size_t seat = 0; seat < p.table.size(); ++seat) {
        points[p.table[seat]] += s.points[seat];
        if (s.places[seat] == 1) ++tables_won[p.table[seat]];
        if (seat < s.game_points.size()) game_points[p.table[seat]] += s.game_points[seat];
      }
    }
  }
  // GP ranks in the game's own order: fewer pips first where the lower score wins. The game is
  // looked up only when GP is asked for.
  const bool gp = std::find(settings.tiebreaks().begin(), settings.tiebreaks().end(), "GP") !=
                  settings.tiebreaks().end();
  const double gp_sign = gp && LowerScoreWins(settings) ? -1 : 1;
  std::vector<const EntrantRow*> order = Ranked(data);
  // Each entrant's sort key, made once (Swiss tables rank every entrant before each round).
  std::map<int, std::vector<double>> keys;
  for (const EntrantRow* e : order) {
    std::vector<double>& k = keys[e->number];
    k.push_back(points[e->number]);
    for (const std::string& name : settings.tiebreaks()) {
      k.push_back(name == "WIN" ? tables_won[e->number] : gp_sign * game_points[e->number]);
    }
  }
  auto key = [&](const EntrantRow* e) -> const std::vector<double>& { return keys[e->number]; };
  std::stable_sort(order.begin(), order.end(),
                   [&](const EntrantRow* a, const EntrantRow* b) { return key(a) > key(b); });
  for (size_t i = 0; i < order.size(); ++i) {
    const EntrantRow& e = *order[i];
    v1::StandingRow& row = *out.add_rows();
    const bool shared = i > 0 && key(order[i - 1]) == key(&e);
    row.set_rank(shared ? out.rows(static_cast<int>(i) - 1).rank() : static_cast<int>(i) + 1);
    row.set_entrant(e.number);
    row.set_display_name(e.display_name);
    row.set_pairing_number(e.pairing_number);
    row.set_withdrawn(e.withdrawn_round > 0);
    row.set_points(points[e.number]);
    row.add_values(points[e.number]);
    for (const std::string& name : settings.tiebreaks()) {
      row.add_values(name == "WIN" ? tables_won[e.number] : game_points[e.number]);
    }
  }
  if (IsPartnerRotation(settings)) *out.mutable_pair_counts() = PairCountsOf(data);
  return out;
}

}  // namespace boneyard::matchmaking
