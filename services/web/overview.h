// The operators' overview: every `interval` the web service samples the services (health
// checks; live matches by game, rates and the ratings backlog from execution's /metrics page;
// waits from matchmaking's; the queues) and pushes the result to every dashboard that listens.
// An hour of samples is kept for the charts. The browsers never poll; one sampler serves them
// all, and it reads counters the services keep rather than listing matches.
#ifndef BONEYARD_SERVICES_WEB_OVERVIEW_H_
#define BONEYARD_SERVICES_WEB_OVERVIEW_H_

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "services/web/backends.h"
#include "services/web/http_message.h"

namespace boneyard::web {

struct OverviewOptions {
  std::string execution_metrics_url;    // http://host:port/metrics; empty: no rates
  std::string matchmaking_metrics_url;  // empty: no waits
  absl::Duration interval = absl::Seconds(5);
  absl::Duration history = absl::Hours(1);
};

class Overview {
 public:
  Overview(Backends& backends, OverviewOptions options);
  ~Overview();  // stops the sampler

  void Start();
  // The latest overview as JSON (docs/web.md); sampled now if none was yet.
  std::string Json();
  // `sink` gets `overview` events, the latest at once.
  void Subscribe(std::shared_ptr<EventSink> sink);
  // Takes one sample and pushes it (the sampler's step; tests call it
  // directly).
  void SampleNow();

 private:
  struct Counters {
    absl::Time time;
    double events = 0;
    double finished = 0;
  };
  nlohmann::json Sample();
  void Loop();

  Backends& backends_;
  const OverviewOptions options_;
  std::thread thread_;
  absl::Mutex mu_;
  bool stopping_ ABSL_GUARDED_BY(mu_) = false;
  std::optional<Counters> previous_ ABSL_GUARDED_BY(mu_);
  std::deque<nlohmann::json> history_ ABSL_GUARDED_BY(mu_);
  std::string latest_ ABSL_GUARDED_BY(mu_);
  std::map<int, std::shared_ptr<EventSink>> listeners_ ABSL_GUARDED_BY(mu_);
  int next_listener_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_OVERVIEW_H_
