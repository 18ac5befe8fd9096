// Live updates from gRPC streams to browsers' event streams. Each runs on
// gRPC's callback API (no thread per stream) and ends when either side does:
// the browser leaving cancels the gRPC call, the call ending sends `end` (or
// `error`) and ends the browser's stream.
//
// - WatchHub: a match's public views (WatchMatch). Every browser watching one
// match shares one
//   gRPC stream; each view is turned into JSON once and a newcomer gets the
//   latest at once.
// - StartPlayRelay: one seat's views (Play, with the seat's token; hellos only,
// actions go by
//   SubmitAction), one stream per browser page: a seat's view is that seat's
//   alone.
// - StartTicketRelay: one ticket's changes (WatchTicket), seat tokens removed.
//
// The execution streams follow a match to the replica that plays it (ReplicaRouter,
// docs/scaling.md): a stream answered with a WrongReplica detail is opened again there, and the
// browser's event stream goes on.
#ifndef BONEYARD_SERVICES_WEB_RELAYS_H_
#define BONEYARD_SERVICES_WEB_RELAYS_H_

#include <map>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "boneyard/v1/execution.grpc.pb.h"
#include "boneyard/v1/matchmaking.grpc.pb.h"
#include "services/common/replica_router.h"
#include "services/web/http_message.h"

namespace boneyard::web {

class WatchHub {
 public:
  explicit WatchHub(ReplicaRouter& execution) : execution_(execution) {}
  ~WatchHub();

  // `sink` gets the match's views (event `view`) from the latest on, then `end`
  // or `error`.
  void Subscribe(const std::string& match, std::shared_ptr<EventSink> sink);
  class Feed;

 private:
  friend class Feed;
  void Forget(const std::string& match, const Feed* feed);
  // Subscribes `sink`; a feed started for it has followed the match `follows` times.
  void Subscribe(const std::string& match, std::shared_ptr<EventSink> sink, int follows);

  ReplicaRouter& execution_;
  absl::Mutex mu_;
  std::map<std::string, std::shared_ptr<Feed>> feeds_ ABSL_GUARDED_BY(mu_);
};

// `seat_token` plays `match`; the browser gets `view` events (SeatView JSON).
void StartPlayRelay(ReplicaRouter& execution, const std::string& seat_token,
                    const std::string& match, std::shared_ptr<EventSink> sink);

// `token` (a player's) watches `ticket`; the browser gets `ticket` events
// (Ticket JSON without seat tokens) and, while it searches, `search` events
// (SearchProgress JSON).
void StartTicketRelay(v1::MatchmakingService::Stub& matchmaking, const std::string& token,
                      const std::string& ticket, std::shared_ptr<EventSink> sink);

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_RELAYS_H_
