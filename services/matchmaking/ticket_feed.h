// WatchTicket's change feed: one thread reads, every `interval`, which of the watched tickets
// changed (their row's version, PgMatchmakingStore::TicketVersions, differs), how many tickets each
// queue has searching and the queues' settings, and wakes the watchers whose ticket changed. A
// watcher then reads its ticket once; between changes it builds its search progress from what the
// feed read. So the database sees three reads per interval however many watch, instead of
// several per watcher (docs/matchmaking.md). Changes made by any process are seen: the feed reads
// the table.
//
//   TicketFeed feed(store, {.interval = absl::Milliseconds(200)});
//   TicketFeed::Watch watch(feed, ticket_id);
//   if (watch.WaitForChange(absl::Now() + absl::Seconds(1))) { ... read the ticket again ... }
//
// No gRPC; the store is the database.
#ifndef BONEYARD_SERVICES_MATCHMAKING_TICKET_FEED_H_
#define BONEYARD_SERVICES_MATCHMAKING_TICKET_FEED_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/matchmaking/pg_matchmaking_store.h"

namespace boneyard::matchmaking {

class TicketFeed {
 public:
  struct Options {
    absl::Duration interval = absl::Milliseconds(200);
  };

  // A ticket watched while the object lives.
  class Watch {
   public:
    // Watches `ticket_id`. The feed's first read of it counts as a change (it cannot know
    // what the watcher read before), so a change between that read and the watch is not lost.
    Watch(TicketFeed& feed, std::string ticket_id);
    ~Watch();
    Watch(const Watch&) = delete;
    Watch& operator=(const Watch&) = delete;

    // Blocks until the ticket changed since the watch began or the last call that returned
    // true (true), or until `deadline` or the feed stops (false).
    bool WaitForChange(absl::Time deadline);

   private:
    TicketFeed& feed_;
    const std::string ticket_id_;
    uint64_t seen_version_ = 0;
  };

  // Starts the reading thread. `store` must outlive the feed.
  TicketFeed(PgMatchmakingStore& store, Options options);
  ~TicketFeed();
  TicketFeed(const TicketFeed&) = delete;
  TicketFeed& operator=(const TicketFeed&) = delete;

  // Ends the thread; waiting watchers return false at once. Idempotent.
  void Stop();

  // Tickets SEARCHING in the queue at the last read; nullopt before the first read.
  std::optional<int> Searching(const std::string& queue_id) const;
  // The queue's settings at the last read; nullopt before it, or when it is gone.
  std::optional<QueueRow> Queue(const std::string& queue_id) const;
  // How many reads the feed has made (tests; metrics).
  int64_t reads() const;

 private:
  struct Watched {
    int watchers = 0;
    std::string seen;      // the row version last seen; empty before the first read
    uint64_t version = 0;  // bumped on each change seen
  };

  void Loop();
  // One read of the watched tickets, the counts and the queues; false when the database
  // could not be read (tried again next interval).
  bool ReadOnce();

  PgMatchmakingStore& store_;
  const Options options_;
  mutable absl::Mutex mu_;
  absl::CondVar changed_;
  std::map<std::string, Watched> watched_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, int> searching_ ABSL_GUARDED_BY(mu_);
  std::map<std::string, QueueRow> queues_ ABSL_GUARDED_BY(mu_);
  bool read_once_ ABSL_GUARDED_BY(mu_) = false;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  int64_t reads_ ABSL_GUARDED_BY(mu_) = 0;
  std::thread thread_;
};

}  // namespace boneyard::matchmaking

#endif  // BONEYARD_SERVICES_MATCHMAKING_TICKET_FEED_H_
