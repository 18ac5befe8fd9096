// The web service's own Prometheus metrics (its /metrics page, --metrics_listen):
//   boneyard_web_relay_seconds    histogram  from a view's arrival on a gRPC stream to its write
//                                            to a browser's socket (per browser)
//   boneyard_web_event_streams    gauge      browsers' event streams open now
#ifndef BONEYARD_SERVICES_WEB_WEB_METRICS_H_
#define BONEYARD_SERVICES_WEB_WEB_METRICS_H_

#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

namespace boneyard::web {

class WebMetrics {
 public:
  explicit WebMetrics(prometheus::Registry& registry);
  // Thread-safe.
  void Relayed(double seconds) { relay_seconds_.Observe(seconds); }
  void Streams(int delta) { streams_.Increment(delta); }

 private:
  prometheus::Histogram& relay_seconds_;
  prometheus::Gauge& streams_;
};

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_WEB_METRICS_H_
