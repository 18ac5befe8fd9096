// WatchEvents' change feed: one thread reads, every `interval` (or at once after a challenge
// changed in this process), the changes of every watched player in one transaction
// (LadderLogic::ReadWatched: the challenge clock, then one query over all of them) and hands
// each to that player's subscribers, as that player sees it. So the database sees one read
// per interval however many streams are open (docs/bots.md). Changes made by any process are
// seen: the feed reads the table.
//
//   LadderFeed feed(logic, {.interval = absl::Milliseconds(250)});
//   feed.Subscribe("ann", subscriber);  // a shared_ptr<Subscriber>
//   ... subscriber->OnEvent(event, sequence) on the feed's thread, by sequence ...
//   feed.Unsubscribe("ann", subscriber.get());
//
// Where a player's feed starts: every change is numbered from the one-row challenge clock
// under its row lock, so changes commit in the order of their numbers (migrations/0009). The
// feed keeps `floor_`, the clock as its last read saw it: every change numbered up to it had
// committed before that read. A player watched anew is read from `floor_` on. A subscriber
// that reads its own backlog after subscribing therefore finds in it every change up to
// `floor_` (they committed before it subscribed), and the feed hands it every change after
// it; the subscriber drops what it has by sequence. No gRPC.
#ifndef BONEYARD_SERVICES_MATCHMAKING_LADDER_FEED_H_
#define BONEYARD_SERVICES_MATCHMAKING_LADDER_FEED_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "boneyard/v1/ladder.pb.h"
#include "services/matchmaking/ladder_logic.h"

namespace boneyard::matchmaking {

class LadderFeed {
 public:
  struct Options {
    absl::Duration interval = absl::Milliseconds(250);
    // The most changes one read hands over; a feed behind by more reads again at once.
    int batch = 1000;
  };

  class Subscriber {
   public:
    virtual ~Subscriber() = default;
    // One change of a challenge the subscriber's player is in, numbered `sequence`; a
    // subscriber's changes come in increasing order. Called on the feed's thread with no lock
    // of the feed held; must not block.
    virtual void OnEvent(const std::shared_ptr<const v1::LadderEvent>& event,
                         int64_t sequence) = 0;
  };

  // Starts the reading thread. `logic` must outlive the feed.
  LadderFeed(LadderLogic& logic, Options options);
  ~LadderFeed();
  LadderFeed(const LadderFeed&) = delete;
  LadderFeed& operator=(const LadderFeed&) = delete;

  // `subscriber` gets `player`'s changes until Unsubscribe (see the header's comment for from
  // where). The feed keeps a reference, so a delivery under way finds it alive.
  void Subscribe(const std::string& player, std::shared_ptr<Subscriber> subscriber);
  void Unsubscribe(const std::string& player, const Subscriber* subscriber);

  // Ends the thread. Idempotent.
  void Stop();

  // Reads the feed has made (tests; metrics).
  int64_t reads() const;
  // Players watched now (tests).
  int watched() const;

 private:
  struct Watched {
    std::map<const Subscriber*, std::shared_ptr<Subscriber>> subscribers;
    int64_t after = 0;  // every change of the player up to this one has been handed over
  };

  void Loop();
  // One read; true when it was cut at `batch` (read again at once).
  bool ReadOnce();

  LadderLogic& logic_;
  const Options options_;
  mutable absl::Mutex mu_;
  std::map<std::string, Watched> watched_ ABSL_GUARDED_BY(mu_);
  int64_t floor_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  int64_t reads_ ABSL_GUARDED_BY(mu_) = 0;
  std::thread thread_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_LADDER_FEED_H_
