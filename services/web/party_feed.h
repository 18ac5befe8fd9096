// Live parties for the lobby: matchmaking has no stream of a party's changes, so the web
// service reads each watched party (GetParty, with the watching member's token) once a second
// on one thread and pushes `party` events to its browser when it changed — members joining or
// leaving, the leader queueing it (its `ticket`). The browser itself never polls.
#ifndef BONEYARD_SERVICES_WEB_PARTY_FEED_H_
#define BONEYARD_SERVICES_WEB_PARTY_FEED_H_

#include <map>
#include <memory>
#include <string>
#include <thread>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "services/web/backends.h"
#include "services/web/http_message.h"

namespace boneyard::web {

class PartyFeed {
 public:
  explicit PartyFeed(Backends& backends, absl::Duration interval = absl::Seconds(1));
  ~PartyFeed();  // stops the thread; open streams end

  // `sink` gets the party now and after every change (event `party`), then `error` when it can
  // no longer be read (the member left, the party ended).
  void Watch(const std::string& token, const std::string& party, std::shared_ptr<EventSink> sink);

 private:
  struct Watcher {
    std::string token;
    std::string party;
    std::string last;  // the JSON last sent
    std::shared_ptr<EventSink> sink;
  };
  void Loop();
  // Reads the watcher's party and sends it if it changed; false when the stream is over.
  bool Refresh(Watcher& watcher);

  Backends& backends_;
  const absl::Duration interval_;
  absl::Mutex mu_;
  std::map<int, Watcher> watchers_ ABSL_GUARDED_BY(mu_);
  int next_id_ ABSL_GUARDED_BY(mu_) = 0;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::thread thread_;
};

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_PARTY_FEED_H_
