// The TournamentService's logic (proto/boneyard/v1/tournament.proto), with no gRPC in it: token
// checks, request validation, page tokens, and the store's transactions around the decisions
// of tournament_plan.h. The gRPC handlers (tournament_service.cc) only decode, call and encode.
//
// Tokens are the matchmaking service's: the operator's, or a player's (stored as a hash in
// the players table). A missing or unknown token where one is needed is UNAUTHENTICATED; a
// known one that does not grant the call PERMISSION_DENIED. Reads are public; a player's token
// on a read shows that player's own seat tokens.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_LOGIC_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_LOGIC_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "boneyard/v1/tournament.pb.h"
#include "services/common/page_token.h"
#include "services/common/tokens.h"
#include "services/matchmaking/pg_matchmaking_store.h"
#include "services/matchmaking/pg_tournament_store.h"
#include "services/matchmaking/rating_cache.h"
#include "services/matchmaking/tournament_import.h"

namespace boneyard::matchmaking {

struct TournamentOptions {
  std::string operator_token;
  // Players' ratings for the initial ranking; null: everyone at 0 (registration order).
  RatingSource* ratings = nullptr;
  // Called after a change the director should act on (a start, a result, an override); may be
  // empty.
  std::function<void()> on_change = nullptr;
};

class TournamentLogic;

// One WatchTournament stream between its messages: what it sent last, to name the next update's
// kind. No database: the updates come from TournamentFeed, built once per viewer.
class TournamentWatch {
 public:
  TournamentWatch(std::string id, std::optional<std::string> viewer, v1::TournamentUpdate first,
                  int64_t version);
  const std::string& id() const { return id_; }
  const std::optional<std::string>& viewer() const { return viewer_; }
  const v1::TournamentUpdate& first() const { return first_; }
  // The message for `update` (the event at `version`, as this stream's viewer sees it), its
  // kind set from what this stream sent before; nullopt when the stream has sent that version
  // or a later one already (the feed may hand over a version the snapshot already showed).
  std::optional<v1::TournamentUpdate> Next(const v1::TournamentUpdate& update, int64_t version);
  // The event finished: no update follows the last one sent.
  bool done() const { return done_; }

 private:
  const std::string id_;
  const std::optional<std::string> viewer_;
  v1::TournamentUpdate first_;
  int64_t version_;
  int round_;
  v1::Round last_round_;  // the current round as last sent, to tell a result from a change
  bool done_;
};

class TournamentLogic {
 public:
  // `players` (the matchmaking store: tokens, names, parties) and `store` must outlive it.
  TournamentLogic(PgMatchmakingStore& players, PgTournamentStore& store, TournamentOptions options);

  using Token = std::optional<std::string>;
  absl::StatusOr<v1::Tournament> CreateTournament(const Token& token,
                                                  const v1::CreateTournamentRequest& request);
  absl::StatusOr<v1::Tournament> GetTournament(const v1::GetTournamentRequest& request);
  absl::StatusOr<v1::ListTournamentsResponse> ListTournaments(
      const v1::ListTournamentsRequest& request);
  absl::StatusOr<v1::Entrant> RegisterPlayer(const Token& token,
                                             const v1::RegisterPlayerRequest& request);
  absl::StatusOr<v1::Entrant> RegisterTeam(const Token& token,
                                           const v1::RegisterTeamRequest& request);
  absl::StatusOr<v1::Entrant> WithdrawPlayer(const Token& token,
                                             const v1::WithdrawPlayerRequest& request);
  absl::StatusOr<v1::ListEntrantsResponse> ListEntrants(const v1::ListEntrantsRequest& request);
  absl::StatusOr<v1::Tournament> StartTournament(const Token& token,
                                                 const v1::StartTournamentRequest& request);
  absl::StatusOr<v1::Tournament> AdvanceTournament(const Token& token,
                                                   const v1::AdvanceTournamentRequest& request);
  absl::StatusOr<v1::ListRoundsResponse> ListRounds(const Token& token,
                                                    const v1::ListRoundsRequest& request);
  absl::StatusOr<v1::Round> GetPairings(const Token& token, const v1::GetPairingsRequest& request);
  absl::StatusOr<v1::Standings> GetStandings(const v1::GetStandingsRequest& request);
  absl::StatusOr<v1::Pairing> SetResult(const Token& token, const v1::SetResultRequest& request);
  absl::StatusOr<v1::ExportTrfResponse> ExportTrf(const v1::ExportTrfRequest& request);
  absl::StatusOr<v1::Tournament> ImportTournament(const Token& token,
                                                  const v1::ImportTournamentRequest& request);

  // WatchTournament, in steps (the stream in tournament_service.cc). Who watches what: the
  // viewer (see Viewer) and the event's id; UNAUTHENTICATED or INVALID_ARGUMENT. No check
  // that the event exists yet: the stream subscribes to the feed before it reads.
  struct WatchTarget {
    std::string id;
    std::optional<std::string> viewer;
  };
  absl::StatusOr<WatchTarget> WatchTargetOf(const Token& token,
                                            const v1::WatchTournamentRequest& request);
  // The stream's start: the event's version, then its SNAPSHOT (read after the version, so a
  // change between the two is sent again, never lost); NOT_FOUND naming the event.
  absl::StatusOr<std::unique_ptr<TournamentWatch>> WatchTournament(const WatchTarget& target);
  // TournamentFeed's reads: the versions of the watched events, in one query; and one changed
  // event's update as each of `viewers` sees it, in their order (the event read once).
  absl::StatusOr<std::map<std::string, int64_t>> WatchedVersions(
      const std::vector<std::string>& ids) {
    return store_.Versions(ids);
  }
  absl::StatusOr<std::vector<v1::TournamentUpdate>> UpdatesOf(
      const std::string& id, const std::vector<std::optional<std::string>>& viewers);

  // A finished tournament game's result (MatchmakingLogic::RecordMatchResult passes on what
  // no queue formed): nullopt when recorded now, the result recorded before otherwise;
  // NOT_FOUND when no tournament game is that match.
  absl::StatusOr<std::optional<std::string>> RecordGameResult(const std::string& match_name,
                                                              const std::string& result,
                                                              absl::Time end_time);

 private:
  // A list's page: its size (page_size, 0 meaning `default_size`, at most `max_size`) and the
  // cursor it starts after ("" for the first page), from a page token issued for `identity`
  // (the list's name and filters).
  struct ListPage {
    int size = 0;
    std::string after;
    std::vector<std::string> identity;
  };
  absl::StatusOr<ListPage> OpenPage(int page_size, int default_size, int max_size,
                                    const std::string& page_token,
                                    std::vector<std::string> identity) const;
  // The token of the page after `page`, whose last item is `last`.
  std::string NextPageToken(const ListPage& page, const std::string& last) const;
  // The update sent to a watcher: the event, its current round and standings.
  absl::StatusOr<v1::TournamentUpdate> UpdateOf(const TournamentData& data,
                                                const std::optional<std::string>& viewer);
  // OK for the operator token.
  absl::Status RequireOperator(const Token& token);
  // The calling player; nullopt for the operator.
  absl::StatusOr<std::optional<std::string>> Caller(const Token& token);
  // Who sees seat tokens on a read: the player whose token it is; nullopt for none or the
  // operator. UNAUTHENTICATED for an unknown token.
  absl::StatusOr<std::optional<std::string>> Viewer(const Token& token);
  // The event's facts; NOT_FOUND naming it.
  absl::StatusOr<TournamentData> Load(const std::string& id);
  // A new league season's entrants from the finished season `settings.league` names, ranked
  // for its divisions (NextSeasonEntrants): NOT_FOUND, FAILED_PRECONDITION (not finished) or
  // INVALID_ARGUMENT (another game or team size; more than max_entrants) naming the field.
  absl::StatusOr<std::vector<EntrantRow>> NextSeason(const v1::Tournament& settings,
                                                     absl::Time now);
  // A change under the event's lock; `decide` runs on the state read in it.
  absl::StatusOr<TournamentData> Change(const std::string& id, const PgTournamentStore::Decide& d);
  // Checks and stores an entrant; `as_team` for RegisterTeam (refused in a single-player
  // event, and RegisterPlayer in a team event), whose players, named by `players_field`, must
  // be as many as the event's team size.
  absl::StatusOr<v1::Entrant> Register(const std::string& tournament, EntrantRow entrant,
                                       bool as_team, absl::string_view players_field = "");
  // Who an import's entrants are, checked: each `team_size` existing players (or a bot), no
  // player twice.
  absl::StatusOr<std::vector<ImportedEntrantRow>> ImportedEntrants(
      const v1::Tournament& settings, const v1::ImportTournamentRequest& request);
  void Changed() {
    if (options_.on_change) options_.on_change();
  }

  PgMatchmakingStore& players_;
  PgTournamentStore& store_;
  const TournamentOptions options_;
  const Authenticator auth_;
  const PageTokens page_tokens_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_LOGIC_H_
