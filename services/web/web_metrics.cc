#include "services/web/web_metrics.h"

namespace boneyard::web {

WebMetrics::WebMetrics(prometheus::Registry& registry)
    : relay_seconds_(prometheus::BuildHistogram()
                         .Name("boneyard_web_relay_seconds")
                         .Help("From a view's arrival on a gRPC stream to its write to a "
                               "browser's event stream")
                         .Register(registry)
                         .Add({}, prometheus::Histogram::BucketBoundaries{
                                      0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2,
                                      0.5, 1, 2})),
      streams_(prometheus::BuildGauge()
                   .Name("boneyard_web_event_streams")
                   .Help("Browsers' event streams open now")
                   .Register(registry)
                   .Add({})) {}

}  // namespace boneyard::web
