#include "services/matchmaking/pg_tournament_store.h"

#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "services/common/pg_fields.h"
#include "services/common/pg_text.h"

namespace boneyard::matchmaking {
namespace {

using pg_fields::Bytes;
using pg_fields::Strings;
using pg_text::Bytea;
using pg_text::EpochMicros;
using pg_text::IntArray;
using pg_text::TextArray;
using pg_text::Timestamp;

std::optional<absl::Time> OptionalTime(const pqxx::field& f) {
  if (f.is_null()) return std::nullopt;
  return absl::FromUnixMicros(f.as<int64_t>());
}

std::vector<int> NumberArray(const pqxx::field& f) {
  std::vector<int> out;
  for (const std::string& s : Strings(f)) {
    int v = 0;
    if (absl::SimpleAtoi(s, &v)) out.push_back(v);
  }
  return out;
}

const std::string kTournamentColumns =
    absl::StrCat("tournament_id, game, settings, state, current_round, rounds, version, ",
                 EpochMicros("create_time"), ", ", EpochMicros("start_time"), ", ",
                 EpochMicros("end_time"), ", coalesce(deal_secret, '')");

TournamentRow ReadTournament(const pqxx::row& r) {
  return {.tournament_id = r[0].as<std::string>(),
          .game = r[1].as<std::string>(),
          .settings = Bytes(r[2]),
          .state = r[3].as<int>(),
          .current_round = r[4].as<int>(),
          .rounds = r[5].as<int>(),
          .version = r[6].as<int64_t>(),
          .create_time = absl::FromUnixMicros(r[7].as<int64_t>()),
          .start_time = OptionalTime(r[8]),
          .end_time = OptionalTime(r[9]),
          .deal_secret = r[10].as<std::string>()};
}

const std::string kEntrantColumns = absl::StrCat(
    "number, display_name, players, bot, rating, coalesce(pairing_number, 0), "
    "coalesce(withdrawn_round, 0), bye_rounds, coalesce(first_round, 0), ",
    EpochMicros("register_time"), ", zero_rounds");

EntrantRow ReadEntrant(const pqxx::row& r) {
  return {.number = r[0].as<int>(),
          .display_name = r[1].as<std::string>(),
          .players = Strings(r[2]),
          .bot = r[3].is_null() ? "" : Bytes(r[3]),
          .rating = r[4].as<double>(),
          .pairing_number = r[5].as<int>(),
          .first_round = r[8].as<int>(),
          .withdrawn_round = r[6].as<int>(),
          .bye_rounds = NumberArray(r[7]),
          .zero_rounds = NumberArray(r[10]),
          .register_time = absl::FromUnixMicros(r[9].as<int64_t>())};
}

const std::string kGameColumns = absl::StrCat(
    "tournament_id, round, board, game, white_first, request_id, request, "
    "coalesce(match_name, ''), coalesce(execution_target, ''), seat_tokens, result, ",
    EpochMicros("end_time"), ", ", EpochMicros("create_time"));

GameRow ReadGame(const pqxx::row& r) {
  return {.tournament_id = r[0].as<std::string>(),
          .round = r[1].as<int>(),
          .board = r[2].as<int>(),
          .game = r[3].as<int>(),
          .white_first = r[4].as<bool>(),
          .request_id = r[5].as<std::string>(),
          .request = Bytes(r[6]),
          .match_name = r[7].as<std::string>(),
          .execution_target = r[8].as<std::string>(),
          .seat_tokens = Strings(r[9]),
          .result = r[10].is_null() ? "" : Bytes(r[10]),
          .end_time = OptionalTime(r[11]),
          .create_time = absl::FromUnixMicros(r[12].as<int64_t>())};
}

std::optional<std::string> OptionalTimestamp(const std::optional<absl::Time>& t) {
  if (!t) return std::nullopt;
  return Timestamp(*t);
}

}  // namespace

PgTournamentStore::PgTournamentStore(PgPool& pool, std::string quoted_schema)
    : pool_(pool), schema_(std::move(quoted_schema)) {}

std::string PgTournamentStore::Table(const char* name) const {
  return absl::StrCat(schema_, ".", name);
}

absl::Status PgTournamentStore::InsertTournament(const TournamentRow& row) {
  absl::Status s = pool_.WithTransaction([&](pqxx::work& tx) {
    tx.exec_params0(absl::StrCat("INSERT INTO ", Table("tournaments"),
                                 " (tournament_id, game, settings, state, create_time,"
                                 " deal_secret)"
                                 " VALUES ($1, $2, $3::bytea, $4, $5::timestamptz, $6)"),
                    row.tournament_id, row.game, Bytea(row.settings), row.state,
                    Timestamp(row.create_time),
                    row.deal_secret.empty() ? nullptr : row.deal_secret.c_str());
    return absl::OkStatus();
  });
  if (absl::IsAlreadyExists(s)) return absl::AlreadyExistsError("tournament_id: already taken");
  return s;
}

absl::Status PgTournamentStore::InsertImported(const TournamentRow& row,
                                               const std::vector<EntrantRow>& entrants,
                                               const TournamentChanges& changes) {
  absl::Status s = pool_.WithTransaction([&](pqxx::work& tx) {
    tx.exec_params0(
        absl::StrCat("INSERT INTO ", Table("tournaments"),
                     " (tournament_id, game, settings, state, current_round, rounds,"
                     " create_time, start_time, end_time) VALUES ($1, $2, $3::bytea, $4, $5, $6,"
                     " $7::timestamptz, $8::timestamptz, $9::timestamptz)"),
        row.tournament_id, row.game, Bytea(row.settings), row.state, row.current_round, row.rounds,
        Timestamp(row.create_time), OptionalTimestamp(row.start_time),
        OptionalTimestamp(row.end_time));
    for (const EntrantRow& e : entrants) {
      tx.exec_params0(
          absl::StrCat("INSERT INTO ", Table("tournament_entrants"),
                       " (tournament_id, number, display_name, players, bot, rating,"
                       " pairing_number, first_round, withdrawn_round, bye_rounds, zero_rounds,"
                       " register_time) VALUES ($1, $2, $3, $4::text[], $5::bytea, $6, $7, $8,"
                       " nullif($9, 0), $10::int[], $11::int[], $12::timestamptz)"),
          row.tournament_id, e.number, e.display_name, TextArray(e.players),
          e.bot.empty() ? std::optional<std::string>() : Bytea(e.bot), e.rating, e.pairing_number,
          e.first_round, e.withdrawn_round, IntArray(e.bye_rounds), IntArray(e.zero_rounds),
          Timestamp(e.register_time));
      for (const std::string& player : e.players) {
        tx.exec_params0(absl::StrCat("INSERT INTO ", Table("tournament_players"),
                                     " (tournament_id, player_id, number) VALUES ($1, $2, $3)"),
                        row.tournament_id, player, e.number);
      }
    }
    Write(tx, row.tournament_id, changes);
    return absl::OkStatus();
  });
  // The players' key too: the caller checks that nobody is in two entrants.
  if (absl::IsAlreadyExists(s)) return absl::AlreadyExistsError("tournament_id: already taken");
  return s;
}

absl::StatusOr<std::optional<TournamentRow>> PgTournamentStore::GetTournament(
    const std::string& id) {
  return pool_.Run([&](pqxx::work& tx) -> std::optional<TournamentRow> {
    const pqxx::result rows = tx.exec_params(
        absl::StrCat("SELECT ", kTournamentColumns, ", (SELECT count(*) FROM ",
                     Table("tournament_entrants"), " e WHERE e.tournament_id = t.tournament_id)",
                     " FROM ", Table("tournaments"), " t WHERE tournament_id = $1"),
        id);
    if (rows.empty()) return std::nullopt;
    TournamentRow row = ReadTournament(rows[0]);
    row.entrant_count = rows[0][11].as<int>();
    return row;
  });
}

absl::StatusOr<std::vector<TournamentRow>> PgTournamentStore::ListTournaments(
    int state, const std::string& after_id, int limit) {
  return pool_.Run([&](pqxx::work& tx) {
    std::vector<TournamentRow> out;
    for (const pqxx::row& r : tx.exec_params(
             absl::StrCat("SELECT ", kTournamentColumns, ", (SELECT count(*) FROM ",
                          Table("tournament_entrants"),
                          " e WHERE e.tournament_id = t.tournament_id) FROM ", Table("tournaments"),
                          " t WHERE tournament_id > $1 AND ($2 = 0 OR state = $2)"
                          " ORDER BY tournament_id LIMIT $3"),
             after_id, state, limit)) {
      out.push_back(ReadTournament(r));
      out.back().entrant_count = r[11].as<int>();
    }
    return out;
  });
}

absl::StatusOr<std::vector<std::pair<std::string, int64_t>>>
PgTournamentStore::RunningTournaments() {
  return pool_.Run([&](pqxx::work& tx) {
    std::vector<std::pair<std::string, int64_t>> out;
    for (const pqxx::row& r :
         tx.exec(absl::StrCat("SELECT tournament_id, version FROM ", Table("tournaments"),
                              " WHERE state = ", kTournamentRunning, " ORDER BY tournament_id"))) {
      out.emplace_back(r[0].as<std::string>(), r[1].as<int64_t>());
    }
    return out;
  });
}

TournamentData PgTournamentStore::ReadAll(pqxx::work& tx, const TournamentRow& row) const {
  TournamentData data;
  data.tournament = row;
  for (const pqxx::row& r : tx.exec_params(
           absl::StrCat("SELECT ", kEntrantColumns, " FROM ", Table("tournament_entrants"),
                        " WHERE tournament_id = $1 ORDER BY number"),
           row.tournament_id)) {
    data.entrants.push_back(ReadEntrant(r));
  }
  data.tournament.entrant_count = static_cast<int>(data.entrants.size());
  for (const pqxx::row& r : tx.exec_params(
           absl::StrCat("SELECT round, ", EpochMicros("start_time"), " FROM ",
                        Table("tournament_rounds"), " WHERE tournament_id = $1 ORDER BY round"),
           row.tournament_id)) {
    data.rounds.push_back(
        {.round = r[0].as<int>(), .start_time = absl::FromUnixMicros(r[1].as<int64_t>())});
  }
  for (const pqxx::row& r :
       tx.exec_params(absl::StrCat("SELECT round, board, white, black, tie, tie_id, override,"
                                   " table_entrants FROM ",
                                   Table("tournament_pairings"),
                                   " WHERE tournament_id = $1 ORDER BY round, board"),
                      row.tournament_id)) {
    data.pairings.push_back({.round = r[0].as<int>(),
                             .board = r[1].as<int>(),
                             .white = r[2].as<int>(),
                             .black = r[3].as<int>(),
                             .tie = r[4].as<std::string>(),
                             .tie_id = r[5].as<int>(),
                             .override_outcome = r[6].as<int>(),
                             .table = NumberArray(r[7])});
  }
  for (const pqxx::row& r :
       tx.exec_params(absl::StrCat("SELECT ", kGameColumns, " FROM ", Table("tournament_games"),
                                   " WHERE tournament_id = $1 ORDER BY round, board, game"),
                      row.tournament_id)) {
    data.games.push_back(ReadGame(r));
  }
  return data;
}

absl::StatusOr<TournamentData> PgTournamentStore::Load(const std::string& id) {
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<TournamentData> {
    // One snapshot for all five reads.
    tx.exec0("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY");
    const pqxx::result rows =
        tx.exec_params(absl::StrCat("SELECT ", kTournamentColumns, " FROM ", Table("tournaments"),
                                    " WHERE tournament_id = $1"),
                       id);
    if (rows.empty()) return absl::NotFoundError("no such tournament");
    return ReadAll(tx, ReadTournament(rows[0]));
  });
}

absl::StatusOr<std::vector<EntrantRow>> PgTournamentStore::ListEntrants(const std::string& id,
                                                                        int after, int limit) {
  return pool_.Run([&](pqxx::work& tx) {
    std::vector<EntrantRow> out;
    for (const pqxx::row& r : tx.exec_params(
             absl::StrCat("SELECT ", kEntrantColumns, " FROM ", Table("tournament_entrants"),
                          " WHERE tournament_id = $1 AND number > $2 ORDER BY number LIMIT $3"),
             id, after, limit)) {
      out.push_back(ReadEntrant(r));
    }
    return out;
  });
}

absl::StatusOr<EntrantRow> PgTournamentStore::InsertEntrant(const std::string& id,
                                                            EntrantRow entrant, int max_entrants,
                                                            bool late, absl::Time now) {
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<EntrantRow> {
    // The row lock orders registrations: numbers are dense and the count is exact.
    const pqxx::result t = tx.exec_params(absl::StrCat("SELECT state FROM ", Table("tournaments"),
                                                       " WHERE tournament_id = $1 FOR UPDATE"),
                                          id);
    if (t.empty()) return absl::NotFoundError("no such tournament");
    const int state = t[0][0].as<int>();
    if (state != kTournamentRegistration && !(late && state == kTournamentRunning)) {
      return absl::FailedPreconditionError("registration is closed");
    }
    const pqxx::row counts =
        tx.exec_params1(absl::StrCat("SELECT count(*), coalesce(max(number), 0) FROM ",
                                     Table("tournament_entrants"), " WHERE tournament_id = $1"),
                        id);
    if (counts[0].as<int>() >= max_entrants) {
      return absl::FailedPreconditionError(
          absl::StrCat("the tournament is full (", max_entrants, " entrants)"));
    }
    for (const std::string& player : entrant.players) {
      const pqxx::result taken =
          tx.exec_params(absl::StrCat("SELECT 1 FROM ", Table("tournament_players"),
                                      " WHERE tournament_id = $1 AND player_id = $2"),
                         id, player);
      if (!taken.empty()) {
        return absl::FailedPreconditionError(
            absl::StrCat("players/", player, " is registered already"));
      }
    }
    entrant.number = counts[1].as<int>() + 1;
    // A bot entrant's name is its kind and its number ("heuristic bot #3").
    if (!entrant.display_name.empty() && entrant.display_name.back() == '#') {
      absl::StrAppend(&entrant.display_name, entrant.number);
    }
    entrant.register_time = now;
    tx.exec_params0(
        absl::StrCat("INSERT INTO ", Table("tournament_entrants"),
                     " (tournament_id, number, display_name, players, bot, rating, bye_rounds,"
                     " register_time) VALUES ($1, $2, $3, $4::text[], $5::bytea, $6, $7::int[],"
                     " $8::timestamptz)"),
        id, entrant.number, entrant.display_name, TextArray(entrant.players),
        entrant.bot.empty() ? std::optional<std::string>() : Bytea(entrant.bot), entrant.rating,
        IntArray(entrant.bye_rounds), Timestamp(now));
    for (const std::string& player : entrant.players) {
      tx.exec_params0(absl::StrCat("INSERT INTO ", Table("tournament_players"),
                                   " (tournament_id, player_id, number) VALUES ($1, $2, $3)"),
                      id, player, entrant.number);
    }
    tx.exec_params0(absl::StrCat("UPDATE ", Table("tournaments"),
                                 " SET version = version + 1 WHERE tournament_id = $1"),
                    id);
    return entrant;
  });
}

void PgTournamentStore::Write(pqxx::work& tx, const std::string& id,
                              const TournamentChanges& c) const {
  for (int number : c.removed_entrants) {
    tx.exec_params0(absl::StrCat("DELETE FROM ", Table("tournament_entrants"),
                                 " WHERE tournament_id = $1 AND number = $2"),
                    id, number);
  }
  for (const auto& [number, pairing_number] : c.pairing_numbers) {
    tx.exec_params0(absl::StrCat("UPDATE ", Table("tournament_entrants"),
                                 " SET pairing_number = $3 WHERE tournament_id = $1"
                                 " AND number = $2"),
                    id, number, pairing_number);
  }
  for (const auto& [number, round] : c.first_rounds) {
    tx.exec_params0(absl::StrCat("UPDATE ", Table("tournament_entrants"),
                                 " SET first_round = $3 WHERE tournament_id = $1 AND number = $2"),
                    id, number, round);
  }
  for (const auto& [number, round] : c.withdrawals) {
    tx.exec_params0(absl::StrCat("UPDATE ", Table("tournament_entrants"),
                                 " SET withdrawn_round = $3 WHERE tournament_id = $1"
                                 " AND number = $2"),
                    id, number, round);
  }
  for (const RoundRow& round : c.new_rounds) {
    tx.exec_params0(absl::StrCat("INSERT INTO ", Table("tournament_rounds"),
                                 " (tournament_id, round, start_time)"
                                 " VALUES ($1, $2, $3::timestamptz)"),
                    id, round.round, Timestamp(round.start_time));
  }
  for (const PairingRow& p : c.new_pairings) {
    tx.exec_params0(absl::StrCat("INSERT INTO ", Table("tournament_pairings"),
                                 " (tournament_id, round, board, white, black, tie, tie_id,"
                                 " override, table_entrants) VALUES ($1, $2, $3, $4, $5, $6, $7,"
                                 " $8, $9::int[])"),
                    id, p.round, p.board, p.white, p.black, p.tie, p.tie_id, p.override_outcome,
                    IntArray(p.table));
  }
  for (const auto& [key, outcome] : c.overrides) {
    tx.exec_params0(absl::StrCat("UPDATE ", Table("tournament_pairings"),
                                 " SET override = $4 WHERE tournament_id = $1 AND round = $2"
                                 " AND board = $3"),
                    id, key.first, key.second, outcome);
  }
  for (const GameRow& g : c.new_games) {
    tx.exec_params0(absl::StrCat("INSERT INTO ", Table("tournament_games"),
                                 " (tournament_id, round, board, game, white_first, request_id,"
                                 " request, create_time) VALUES ($1, $2, $3, $4, $5, $6,"
                                 " $7::bytea, $8::timestamptz)"),
                    id, g.round, g.board, g.game, g.white_first, g.request_id, Bytea(g.request),
                    Timestamp(g.create_time));
  }
  for (const AuditRow& a : c.audit) {
    tx.exec_params0(absl::StrCat("INSERT INTO ", Table("tournament_audit"),
                                 " (tournament_id, time, actor, action, detail)"
                                 " VALUES ($1, now(), $2, $3, $4)"),
                    id, a.actor, a.action, a.detail);
  }
  tx.exec_params0(
      absl::StrCat("UPDATE ", Table("tournaments"),
                   " SET version = version + 1, state = coalesce($2, state),"
                   " current_round = coalesce($3, current_round), rounds = coalesce($4, rounds),"
                   " start_time = coalesce($5::timestamptz, start_time),"
                   " end_time = coalesce($6::timestamptz, end_time)"
                   " WHERE tournament_id = $1"),
      id, c.state, c.current_round, c.rounds, OptionalTimestamp(c.start_time),
      OptionalTimestamp(c.end_time));
}

absl::StatusOr<TournamentData> PgTournamentStore::Change(const std::string& id,
                                                         const Decide& decide) {
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<TournamentData> {
    const pqxx::result rows =
        tx.exec_params(absl::StrCat("SELECT ", kTournamentColumns, " FROM ", Table("tournaments"),
                                    " WHERE tournament_id = $1 FOR UPDATE"),
                       id);
    if (rows.empty()) return absl::NotFoundError("no such tournament");
    TournamentData data = ReadAll(tx, ReadTournament(rows[0]));
    absl::StatusOr<TournamentChanges> changes = decide(data);
    if (!changes.ok()) return changes.status();
    if (changes->empty()) return data;
    Write(tx, id, *changes);
    const pqxx::result after =
        tx.exec_params(absl::StrCat("SELECT ", kTournamentColumns, " FROM ", Table("tournaments"),
                                    " WHERE tournament_id = $1"),
                       id);
    return ReadAll(tx, ReadTournament(after[0]));
  });
}

absl::StatusOr<std::vector<GameRow>> PgTournamentStore::PendingGames(int limit) {
  return pool_.Run([&](pqxx::work& tx) {
    std::vector<GameRow> out;
    for (const pqxx::row& r : tx.exec_params(
             absl::StrCat("SELECT ", kGameColumns, " FROM ", Table("tournament_games"),
                          " WHERE match_name IS NULL ORDER BY create_time, request_id LIMIT $1"),
             limit)) {
      out.push_back(ReadGame(r));
    }
    return out;
  });
}

absl::Status PgTournamentStore::RecordGameCreated(const std::string& request_id,
                                                  const std::string& match_name,
                                                  const std::string& execution_target,
                                                  const std::vector<std::string>& seat_tokens) {
  return pool_.WithTransaction([&](pqxx::work& tx) {
    const pqxx::result updated = tx.exec_params(
        absl::StrCat("UPDATE ", Table("tournament_games"),
                     " SET match_name = $2, execution_target = $3, seat_tokens = $4::text[]"
                     " WHERE request_id = $1 AND match_name IS NULL RETURNING tournament_id"),
        request_id, match_name, execution_target, TextArray(seat_tokens));
    for (const pqxx::row& r : updated) {
      tx.exec_params0(absl::StrCat("UPDATE ", Table("tournaments"),
                                   " SET version = version + 1 WHERE tournament_id = $1"),
                      r[0].as<std::string>());
    }
    return absl::OkStatus();
  });
}

absl::StatusOr<std::optional<std::string>> PgTournamentStore::RecordGameResult(
    const std::string& match_name, const std::string& result, absl::Time end_time) {
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<std::optional<std::string>> {
    const pqxx::result rows =
        tx.exec_params(absl::StrCat("SELECT tournament_id, result FROM ", Table("tournament_games"),
                                    " WHERE match_name = $1"),
                       match_name);
    if (rows.empty()) return absl::NotFoundError("no such tournament game");
    const std::string id = rows[0][0].as<std::string>();
    // The event's row first, as every change of the event takes it: two deliveries of one
    // result, or a result and the director, are ordered by it.
    tx.exec_params(absl::StrCat("SELECT 1 FROM ", Table("tournaments"),
                                " WHERE tournament_id = $1 FOR UPDATE"),
                   id);
    const pqxx::result game = tx.exec_params(
        absl::StrCat("SELECT result FROM ", Table("tournament_games"), " WHERE match_name = $1"),
        match_name);
    if (!game[0][0].is_null()) return std::optional<std::string>(Bytes(game[0][0]));
    tx.exec_params0(absl::StrCat("UPDATE ", Table("tournament_games"),
                                 " SET result = $2::bytea, end_time = $3::timestamptz"
                                 " WHERE match_name = $1"),
                    match_name, Bytea(result), Timestamp(end_time));
    tx.exec_params0(absl::StrCat("UPDATE ", Table("tournaments"),
                                 " SET version = version + 1 WHERE tournament_id = $1"),
                    id);
    return std::optional<std::string>();
  });
}

absl::StatusOr<int64_t> PgTournamentStore::Version(const std::string& id) {
  return pool_.Run([&](pqxx::work& tx) -> absl::StatusOr<int64_t> {
    const pqxx::result rows = tx.exec_params(
        absl::StrCat("SELECT version FROM ", Table("tournaments"), " WHERE tournament_id = $1"),
        id);
    if (rows.empty()) return absl::NotFoundError("no such tournament");
    return rows[0][0].as<int64_t>();
  });
}

absl::StatusOr<std::map<std::string, int64_t>> PgTournamentStore::Versions(
    const std::vector<std::string>& ids) {
  return pool_.Run([&](pqxx::work& tx) {
    std::map<std::string, int64_t> versions;
    for (const pqxx::row& row : tx.exec_params(
             absl::StrCat("SELECT tournament_id, version FROM ", Table("tournaments"),
                          " WHERE tournament_id = ANY($1::text[])"),
             TextArray(ids))) {
      versions[row[0].as<std::string>()] = row[1].as<int64_t>();
    }
    return versions;
  });
}

}  // namespace boneyard::matchmaking
