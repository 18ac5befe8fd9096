// One match being played: the engine state, its event sequence, who is watching, and its turn
// machinery (built-in bots, the move clock). Everything below runs on the match's strand, so the
// state needs no lock; only the summary that ListMatches reads from other threads has one.
//
// The life of an event: a task on the strand validates it against the committed state, applies
// it to a clone, and hands the event (and, for the last one, the match's end) to the group
// committer. Until the commit answers, the match has an event in flight and later mutating
// tasks wait in `deferred_`. When the commit succeeds the clone becomes the state, the sequence
// advances, the submitter is answered, every seat stream and spectator gets its view, and the
// next turn starts (a bot thinks, or the mover's clock is armed). When it fails, the clone is
// dropped and the submitter gets UNAVAILABLE: nobody ever saw an event that is not durable.
#ifndef BONEYARD_SERVICES_EXECUTION_LIVE_MATCH_H_
#define BONEYARD_SERVICES_EXECUTION_LIVE_MATCH_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <span>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "boneyard/v1/execution.pb.h"
#include "engine/bots/bot.h"
#include "engine/core/game.h"
#include "engine/records/record.h"
#include "services/common/rate_limit.h"
#include "services/common/view_mask.h"
#include "services/execution/group_commit.h"
#include "services/execution/host_metrics.h"
#include "services/execution/match_host.h"
#include "services/execution/match_store.h"
#include "services/execution/thread_pool.h"
#include "services/execution/timer_queue.h"

namespace boneyard::execution {

// The most Play streams one seat keeps open. It bounds what a seat's holder can pin down by
// opening streams and dropping them: a dropped stream whose client had half-closed is only
// noticed at its next view (execution_service.cc, PlayCall), which may be far off while the
// match waits for that very seat.
inline constexpr std::size_t kMaxStreamsPerSeat = 16;

// What every live match shares; owned by the host, outlives the matches' work.
struct MatchContext {
  GroupCommitter* log = nullptr;
  ThreadPool* strands = nullptr;
  ThreadPool* bots = nullptr;
  TimerQueue* timers = nullptr;
  HostMetrics* metrics = nullptr;
  const BotRegistry* bot_registry = nullptr;
  absl::Duration bot_think_budget;
  absl::Duration bot_delay;
  // HostOptions::seat_flood and max_watchers_per_match.
  RateLimit seat_flood;
  int max_watchers = 0;
  // Called on the strand once the match's last event is durable: the host forgets the match.
  std::function<void(const std::string& id)> on_ended;
  // HostOptions::on_finished; may be empty.
  std::function<void()> on_finished;
};

class LiveMatch : public std::enable_shared_from_this<LiveMatch> {
 public:
  // A match as created, or as stored with its events (replayed here through the engine).
  // FAILED_PRECONDITION naming the match and event when the log does not replay.
  static absl::StatusOr<std::shared_ptr<LiveMatch>> Load(MatchContext& context, NewMatch created,
                                                         std::shared_ptr<const Game> game,
                                                         const std::vector<EventRow>& events);

  const std::string& id() const { return created_.id; }
  const std::string& game() const { return created_.match.game(); }
  // The duplicate round the match shares its deals with; empty name for most.
  const v1::DealGroup& deal_group() const { return created_.match.deal_group(); }
  // The token of each seat (empty for bots), as created.
  const std::vector<std::string>& seat_tokens() const { return created_.seat_tokens; }

  // Starts the turn of whoever is to move: a bot thinks, or the mover's clock starts.
  void Begin();

  // The unary SubmitAction: `done` gets the seat's view right after the action, or the
  // rejection (INVALID_ARGUMENT, ABORTED, FAILED_PRECONDITION) or UNAVAILABLE.
  void Submit(int seat, v1::Action action, int64_t seen_sequence, Callback<v1::SeatView> done);
  // A Play stream's action: a rejection goes to `sink`, success shows in the views.
  void PlayFromStream(int seat, std::shared_ptr<SeatSink> sink, v1::Action action,
                      int64_t seen_sequence);
  // Sends the seat's current view to `sink` (a hello), with the fields of `mask`. Past the
  // seat's flood limit the stream is closed with RESOURCE_EXHAUSTED instead.
  void SendSeatView(int seat, std::shared_ptr<SeatSink> sink, ViewMask mask);
  // Adds a Play stream: it gets the current view now and one after every event, each with the
  // fields of `mask`. A seat keeps at most kMaxStreamsPerSeat: one more closes its oldest with
  // RESOURCE_EXHAUSTED. Opening counts against the seat's flood limit, past which the new
  // stream is closed with RESOURCE_EXHAUSTED. `replay_events`: first the seat's views at
  // sequence 0 and after each earlier event (PlayRequest.replay_events).
  void AttachSeat(int seat, std::shared_ptr<SeatSink> sink, ViewMask mask,
                  bool replay_events = false);
  // Adds a spectator: the public view now and after every event. Past the match's limit of
  // spectators, the stream is closed with RESOURCE_EXHAUSTED instead.
  void AttachWatcher(std::shared_ptr<WatchSink> sink, ViewMask mask);
  // Ends the match without a result. An already aborted match is returned unchanged; a
  // finished one is FAILED_PRECONDITION.
  void Abort(std::string reason, Callback<v1::Match> done);
  // The match resource as it is now.
  void Describe(Callback<v1::Match> done);
  // Shutdown: every stream is closed with `status`, later ones at once; nothing else changes.
  void CloseStreams(absl::Status status);

  // The resource as it is now, from any thread (for listings): what was created plus the
  // latest sequence and update time.
  v1::Match Snapshot() const;

 private:
  struct Pending;
  // A stream and the fields its views carry.
  template <class Response>
  struct Subscriber {
    std::shared_ptr<StreamSink<Response>> sink;
    ViewMask mask;
  };

  LiveMatch(MatchContext& context, NewMatch created, std::shared_ptr<const Game> game);

  // Runs `task` on the match's strand: at once on this thread when the strand is idle (the
  // usual case: a gRPC thread with a player's action), else after the strand's earlier tasks.
  // Never call it holding a lock a task may take.
  void Post(std::function<void()> task);
  // Runs `task` on the match's strand, always on a worker: for threads that have better things
  // to do than the match's work (a commit writer, wanted for the next commit).
  void PostToWorker(std::function<void()> task);
  // Strand-only helpers.
  void RunOrDefer(std::function<void()> task);
  void RunDeferred();
  // The action resolved against the committed state, or why it cannot be played.
  absl::StatusOr<Action> Validate(int seat, const v1::Action& action, int64_t seen_sequence) const;
  // A player's action, from Submit or a Play stream: `answer` gets the rejection, the commit's
  // failure, or OK once the event is durable and applied (on the strand).
  void PlayerAction(int seat, v1::Action action, int64_t seen_sequence,
                    std::function<void(absl::Status)> answer);
  void CountRejection(const absl::Status& status) const;
  // Takes one of the seat's flood tokens: OK, or RESOURCE_EXHAUSTED saying the limit.
  absl::Status TakeFloodToken(int seat);
  // `received`: when the action reached the match (for the latency metric).
  void ApplyAction(int seat, Action action, v1::MatchEvent::Reason reason,
                   std::function<void(absl::Status)> origin, absl::Time received);
  void EndWithoutResult(int seat, v1::MatchEvent::Reason reason, v1::Match::State state,
                        std::string message, std::function<void(absl::Status)> origin);
  void CommitEvent(std::unique_ptr<Pending> pending);
  void OnCommitted(absl::Status status);
  void StartTurn();
  void ScheduleBot(int seat);
  // A searching bot has not answered by its due time: the stand-in's move (the game's default
  // bot) is played for it, counted as over budget. On the strand.
  void OnBotLate(int seat, int64_t sequence, absl::Time turn);
  // The stand-in's move (the game's default bot, seeing only the seat's view) for `seat`, whose
  // turn it is: for a player's timeout and a bot's lateness alike. On the strand.
  Action StandInAction(int seat) const;
  // A bot's move for the turn it was given at `turn` (its think time is observed).
  void OnBotMove(int seat, int64_t sequence, Action action, absl::Time turn);
  void OnDeadline(int64_t sequence);
  void Broadcast();
  void CloseAll(absl::Status status);
  std::optional<absl::Time> CurrentDeadline() const;
  // Views are built to be sent: the layout goes in as wire bytes (LayoutForm::kWire), and
  // only when the mask includes it.
  v1::SeatView MakeSeatView(int seat) const;
  void FillSeatViewOf(int seat, const ViewMask& mask, v1::SeatView& view) const;
  void FillPublicViewOf(const ViewMask& mask, v1::PublicView& view) const;
  // The seat's views before the current one, replayed from the record; false when the sink
  // took no more.
  bool SendEarlierViews(int seat, SeatSink& sink, const ViewMask& mask) const;
  // One message per distinct mask among a seat's (or the spectators') streams, sent to each.
  template <class Response, class Fill>
  void SendToAll(std::vector<Subscriber<Response>>& subscribers, const Fill& fill);
  v1::Match Resource() const;
  v1::MatchResult ForfeitResult(int seat) const;
  std::string RecordJson(const RecordBuilder& builder, const State& state) const;
  bool IsBot(int seat) const { return created_.match.seats(seat).has_bot(); }

  MatchContext& context_;
  const NewMatch created_;
  const std::shared_ptr<const Game> game_;
  const std::shared_ptr<Strand> strand_;
  std::vector<std::string> player_ids_;   // by seat; empty for bots
  std::vector<std::string> seat_labels_;  // the record's labels
  absl::Duration per_move_;               // zero: no clock

  // Strand-confined.
  std::unique_ptr<State> state_;
  std::unique_ptr<RecordBuilder> builder_;
  int64_t sequence_ = 0;
  absl::Time turn_start_;
  std::optional<v1::MatchEvent> last_event_;
  bool in_flight_ = false;
  std::unique_ptr<Pending> pending_;
  std::deque<std::function<void()>> deferred_;
  v1::Match::State end_state_ = v1::Match::ACTIVE;
  std::optional<v1::MatchResult> result_;
  std::string abort_reason_;
  absl::Time end_time_;
  bool streams_closed_ = false;
  absl::Status close_status_;
  std::vector<std::unique_ptr<Bot>> bots_;  // by seat; null for players
  std::vector<int> bot_levels_;             // by seat: Bot.level as created (0: the default)
  // By seat: how long a bot may take from its turn to its move — the service's budget, or a
  // search level's own when smaller.
  std::vector<absl::Duration> think_caps_;
  // By seat: held while its bot chooses (bot threads only).
  std::vector<std::unique_ptr<absl::Mutex>> bot_locks_;
  std::unique_ptr<Bot> stand_in_;           // plays timed-out moves and over-budget bot moves
  std::vector<std::vector<Subscriber<v1::PlayResponse>>> seat_sinks_;
  std::vector<Subscriber<v1::WatchMatchResponse>> watchers_;
  std::vector<TokenBucket> seat_flood_;  // by seat

  // For Snapshot() from other threads.
  mutable absl::Mutex summary_mu_;
  int64_t summary_sequence_ ABSL_GUARDED_BY(summary_mu_) = 0;
  absl::Time summary_update_time_ ABSL_GUARDED_BY(summary_mu_);
};

}  // namespace boneyard::execution

#endif  // BONEYARD_SERVICES_EXECUTION_LIVE_MATCH_H_
