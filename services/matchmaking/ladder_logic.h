// The LadderService's logic (proto/boneyard/v1/ladder.proto), with no gRPC in it: token checks,
// request validation, page tokens, the decisions of ladder_rules.h around the store's
// transactions, and the matches accepted challenges lead to (created on execution through
// MatchCreator). The gRPC handlers (ladder_service.cc) only decode, call and encode.
//
// Tokens are the matchmaking service's: the operator's, or a player's. A missing or unknown
// token where one is needed is UNAUTHENTICATED; a known one that does not grant the call
// PERMISSION_DENIED.
#ifndef BONEYARD_SERVICES_MATCHMAKING_LADDER_LOGIC_H_
#define BONEYARD_SERVICES_MATCHMAKING_LADDER_LOGIC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "boneyard/v1/ladder.pb.h"
#include "boneyard/v1/ratings.pb.h"
#include "services/common/page_token.h"
#include "services/common/tokens.h"
#include "services/matchmaking/ladder_rules.h"
#include "services/matchmaking/matchmaker.h"
#include "services/matchmaking/pg_ladder_store.h"
#include "services/matchmaking/pg_matchmaking_store.h"
#include "services/matchmaking/rating_cache.h"

namespace boneyard::matchmaking {

// Ratings as the standings need them: each id's rating in a game (the initial one, with no
// games, for an id without a rated match), in the order asked.
class LadderRatings {
 public:
  virtual ~LadderRatings() = default;
  virtual absl::StatusOr<std::vector<v1::Rating>> Get(const std::string& game,
                                                      const std::vector<std::string>& ids) = 0;
};

struct LadderOptions {
  std::string operator_token;
  // Where accepted challenges' matches are created; null: they stay ACCEPTED without a match
  // (UNAVAILABLE), as when execution is out of reach.
  MatchCreator* creator = nullptr;
  // Challengers' skill for bot accounts' rules; null: everyone at the initial rating.
  RatingSource* skills = nullptr;
  // The standings' ratings; null: ListLadderStandings is UNAVAILABLE.
  LadderRatings* ratings = nullptr;
};

class LadderLogic {
 public:
  // `players` (tokens, names, kinds) and `store` must outlive it.
  LadderLogic(PgMatchmakingStore& players, PgLadderStore& store, LadderOptions options);

  using Token = std::optional<std::string>;
  absl::StatusOr<v1::Ladder> CreateLadder(const Token& token,
                                          const v1::CreateLadderRequest& request);
  absl::StatusOr<v1::Ladder> GetLadder(const v1::GetLadderRequest& request);
  absl::StatusOr<v1::ListLaddersResponse> ListLadders(const v1::ListLaddersRequest& request);
  absl::StatusOr<v1::LadderMember> JoinLadder(const Token& token,
                                              const v1::JoinLadderRequest& request);
  absl::StatusOr<v1::ListLadderStandingsResponse> ListLadderStandings(
      const v1::ListLadderStandingsRequest& request);
  absl::StatusOr<v1::Challenge> CreateChallenge(const Token& token,
                                                const v1::CreateChallengeRequest& request);
  absl::StatusOr<v1::Challenge> GetChallenge(const Token& token,
                                             const v1::GetChallengeRequest& request);
  absl::StatusOr<v1::Challenge> AcceptChallenge(const Token& token,
                                                const v1::AcceptChallengeRequest& request);
  absl::StatusOr<v1::Challenge> DeclineChallenge(const Token& token,
                                                 const v1::DeclineChallengeRequest& request);

  // WatchEvents, in steps. The watcher: a player's token (UNAUTHENTICATED without one or for
  // an unknown one; PERMISSION_DENIED for the operator, who has no challenges of its own).
  absl::StatusOr<std::string> Watcher(const Token& token);
  // A stream's start: the caller's open challenges (after == 0) or those changed after
  // `after`, and the sequence to go on from.
  struct Batch {
    std::vector<v1::LadderEvent> events;
    int64_t sequence = 0;
    // A full page of changes was read: more may follow after `sequence`.
    bool more = false;
  };
  absl::StatusOr<Batch> FirstEvents(const std::string& player, int64_t after);
  // The player's changes after `after` (> 0), one page: how a stream catches up after its
  // first page or after falling behind the feed.
  absl::StatusOr<Batch> EventsAfter(const std::string& player, int64_t after);

  // LadderFeed's read: the changes of every watched player after that player's number, each
  // as that player sees it (their own seat tokens only), by sequence (PgLadderStore::ChangesOf).
  struct WatchedEvent {
    std::string player;
    int64_t sequence = 0;
    v1::LadderEvent event;
  };
  struct WatchedEvents {
    int64_t latest = 0;  // the clock, read before the changes
    std::vector<WatchedEvent> events;
    bool truncated = false;
  };
  absl::StatusOr<WatchedEvents> ReadWatched(const std::vector<std::string>& players,
                                            const std::vector<int64_t>& after, int limit);
  // Waits until a challenge changed in this process after the count `seen` (a value this
  // returned before; 0 at first), or `deadline`; the count now. Lets the feed read at once
  // after a change made here rather than at its next interval.
  int64_t AwaitChange(int64_t seen, absl::Time deadline);

  // The pools' pass: every challenge that has waited in a ladder's pool for its `pool_wait`
  // gets the house bot whose rating is nearest its challenger's, and its match. A challenge
  // paired or withdrawn meanwhile is left as it is; each is changed in its own transaction, so
  // passes of several processes fill each one once.
  absl::Status FillPools(absl::Time now);

  // A finished ladder match's result (MatchmakingLogic::RecordMatchResult passes on what no
  // queue or tournament formed): nullopt when recorded now, the result recorded before
  // otherwise; NOT_FOUND when no challenge led to that match.
  absl::StatusOr<std::optional<std::string>> RecordGameResult(const std::string& match_name,
                                                              const std::string& result,
                                                              absl::Time end_time);

 private:
  // OK for the operator token.
  absl::Status RequireOperator(const Token& token);
  // The calling player; nullopt for the operator.
  absl::StatusOr<std::optional<std::string>> Caller(const Token& token);
  absl::StatusOr<v1::Ladder> LoadLadder(const std::string& ladder_id);
  // The challenge, NOT_FOUND naming it; with the caller (who must be in it, or the operator).
  absl::StatusOr<ChallengeRow> LoadChallenge(const std::string& name, const Token& token,
                                             std::optional<std::string>& caller);
  // CreateChallenge to the ladder's pool (see ladder.proto).
  absl::StatusOr<v1::Challenge> EnterPool(const v1::Ladder& ladder, const std::string& ladder_id,
                                          const std::string& challenger_id,
                                          const ChallengeSide& challenger,
                                          const v1::CreateChallengeRequest& request,
                                          const std::optional<std::string>& caller);
  // Creates the match of an ACCEPTED challenge that has none yet, and records it.
  absl::StatusOr<ChallengeRow> CreateMatch(ChallengeRow row);
  // The challenge as the schema shows it to `viewer` (a player id; nullopt: nobody's tokens).
  v1::Challenge ToProto(const ChallengeRow& row, const std::optional<std::string>& viewer) const;
  // Appends the player's challenges changed after `batch.sequence` (or, `open_only`, those
  // still open) to `batch`, and moves its sequence on past them.
  absl::Status ReadEvents(const std::string& player, bool open_only, Batch& batch);
  // Wakes the feed (AwaitChange).
  void Changed();

  PgMatchmakingStore& players_;
  PgLadderStore& store_;
  const LadderOptions options_;
  const Authenticator auth_;
  const PageTokens page_tokens_;

  absl::Mutex mu_;
  int64_t changes_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_LADDER_LOGIC_H_
