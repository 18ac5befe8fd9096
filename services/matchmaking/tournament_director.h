// The tournament director: runs every RUNNING tournament forward. No gRPC (execution is a
// MatchCreator), no SQL (the store), no tournament rules (tournament_plan.h).
//
// Every pass, in order:
//   1. per running tournament whose version moved since a pass last decided nothing for it (or
//      whose time to decide has come: an arena's close), under its row lock (PgTournamentStore::Change): PlanStep —
//      a series' next game; once the current round is decided, the next round's pairings and
//      their games (or the end). Computed from the stored facts and written in the same
//      transaction, so a round is paired once, whichever director (thread, process) gets the
//      lock first, and after a crash the next pass decides the same from the same rows;
//   2. every stored game not yet created on execution — this pass's, and any a crash, an
//      outage or another process left — is sent to execution. Its request_id names the game
//      (tournament, round, board, game) and its request is stored before it is sent, so a
//      resend can only ever return the same match; execution's answer (match name, seat
//      tokens) is recorded.
// Results arrive through RecordMatchResult (TournamentLogic::RecordGameResult), which wakes
// the director.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_DIRECTOR_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_DIRECTOR_H_

#include <map>
#include <set>
#include <string>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "services/common/pass_loop.h"
#include "services/matchmaking/matchmaker.h"
#include "services/matchmaking/pg_tournament_store.h"

namespace boneyard::matchmaking {

struct DirectorOptions {
  // How often a pass runs when nothing wakes it.
  absl::Duration interval = absl::Seconds(1);
  // The most games sent to execution in one pass.
  int max_creations_per_pass = 500;
};

// What one pass did.
struct DirectorReport {
  int tournaments = 0;  // running ones
  int unchanged = 0;    // of those, not read: nothing changed since a pass decided nothing
  int changed = 0;      // of those, with a change written
  int failed = 0;       // whose step failed (logged; tried again next pass)
  int created = 0;      // games created on execution
  int retry = 0;        // left for the next pass: execution unavailable
  int refused = 0;      // refused for good by execution (logged once; the operator decides)
};

class TournamentDirector {
 public:
  // `store` and `creator` must outlive the director.
  TournamentDirector(PgTournamentStore& store, MatchCreator& creator, DirectorOptions options = {});
  ~TournamentDirector();
  TournamentDirector(const TournamentDirector&) = delete;
  TournamentDirector& operator=(const TournamentDirector&) = delete;

  // One pass at `now` (tests call it directly).
  absl::StatusOr<DirectorReport> RunPass(absl::Time now);
  // A pass every interval on a thread of its own until Stop; Wake asks for one now.
  void Start();
  void Stop();
  void Wake();

 private:
  PgTournamentStore& store_;
  MatchCreator& creator_;
  const DirectorOptions options_;
  // Requests execution refused for good, so each is logged once (the pass thread's only).
  std::set<std::string> refused_;
  // The events the last pass decided nothing for, at the version it read, until when that holds
  // (an arena's close; the pass thread's).
  struct Settled {
    int64_t version = 0;
    absl::Time until = absl::InfiniteFuture();
  };
  std::map<std::string, Settled> settled_;
  // Last: destroyed (stopped) first, before what its passes use.
  PassLoop loop_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_DIRECTOR_H_
