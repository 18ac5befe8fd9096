// WatchTournament's change feed: one thread reads, every `interval`, the versions of every
// watched tournament in one query (TournamentLogic::WatchedVersions), and for each one that
// changed builds its update once per distinct viewer (the public view, or a player who sees
// their own seat tokens) and hands it to that viewer's subscribers. So the database sees one
// read per interval, plus one per change, however many streams are open
// (docs/tournaments.md). Changes made by any process are seen: the feed reads the table.
//
//   TournamentFeed feed(logic, {.interval = absl::Milliseconds(250)});
//   feed.Subscribe("cup", std::nullopt, subscriber);   // a shared_ptr<Subscriber>
//   ... subscriber->OnUpdate(update, version) on the feed's thread ...
//   feed.Unsubscribe("cup", subscriber.get());
//
// A newly watched tournament's first read counts as a change: the feed cannot know what its
// subscribers read before subscribing, so they drop what they have seen (TournamentWatch::Next
// compares versions). No gRPC.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_FEED_H_
#define BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_FEED_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "boneyard/v1/tournament.pb.h"
#include "services/matchmaking/tournament_logic.h"

namespace boneyard::matchmaking {

class TournamentFeed {
 public:
  struct Options {
    absl::Duration interval = absl::Milliseconds(250);
  };

  class Subscriber {
   public:
    virtual ~Subscriber() = default;
    // The tournament at `version`, as the subscriber's viewer sees it. Called on the feed's
    // thread, with no lock of the feed held; must not block.
    virtual void OnUpdate(const std::shared_ptr<const v1::TournamentUpdate>& update,
                          int64_t version) = 0;
  };

  // Starts the reading thread. `logic` must outlive the feed.
  TournamentFeed(TournamentLogic& logic, Options options);
  ~TournamentFeed();
  TournamentFeed(const TournamentFeed&) = delete;
  TournamentFeed& operator=(const TournamentFeed&) = delete;

  // `subscriber` gets tournament `id`'s updates as `viewer` sees them until Unsubscribe. The
  // feed keeps a reference, so a delivery under way when it unsubscribes finds it alive.
  void Subscribe(const std::string& id, const std::optional<std::string>& viewer,
                 std::shared_ptr<Subscriber> subscriber);
  // After it returns, no new delivery to `subscriber` starts (one under way may finish).
  void Unsubscribe(const std::string& id, const Subscriber* subscriber);

  // Ends the thread. Idempotent.
  void Stop();

  // Queries the feed has made: version reads plus update builds (tests; metrics).
  int64_t reads() const;
  // Tournaments watched now (tests).
  int watched() const;

 private:
  struct Watched {
    std::map<const Subscriber*, std::pair<std::optional<std::string>, std::shared_ptr<Subscriber>>>
        subscribers;
    std::optional<int64_t> seen;  // the version last delivered; none before the first read
  };

  void Loop();
  // One read of the watched versions, and the updates of those that changed.
  void ReadOnce();

  TournamentLogic& logic_;
  const Options options_;
  mutable absl::Mutex mu_;
  std::map<std::string, Watched> watched_ ABSL_GUARDED_BY(mu_);
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  int64_t reads_ ABSL_GUARDED_BY(mu_) = 0;
  std::thread thread_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_TOURNAMENT_FEED_H_
