// What the web service's logic sees of HTTP: a parsed request, a whole
// response, and an event stream (server-sent events) to push to. The transport
// (http_server.cc, Boost.Beast) fills and sends these; nothing above it knows
// Beast or sockets.
#ifndef BONEYARD_SERVICES_WEB_HTTP_MESSAGE_H_
#define BONEYARD_SERVICES_WEB_HTTP_MESSAGE_H_

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/string_view.h"

namespace boneyard::web {

struct HttpRequest {
  std::string method;                        // "GET", "POST", ...
  std::string path;                          // percent-decoded, without the query
  std::map<std::string, std::string> query;  // decoded; a repeated key keeps its last value
  std::string body;
  std::string content_type;  // as sent, e.g. "application/json; charset=utf-8"
  std::string cookie;        // the Cookie header, as sent
  std::string csrf_token;    // the X-CSRF-Token header
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers = {};  // extra ones, e.g. Set-Cookie
};

// A server-sent event stream to one browser. Thread-safe: relays call it from
// gRPC's threads.
class EventSink {
 public:
  virtual ~EventSink() = default;
  // The moment an event reached the web service (from a gRPC stream), for timing the relay.
  using Clock = std::chrono::steady_clock;

  // Queues `event: NAME` / `data: DATA` (DATA must hold no newline: JSON on one line). Once the
  // browser is gone, or it fell too far behind to keep up, this does nothing. With `origin`,
  // the time from it until the event is written to the socket is reported to the server's
  // `on_relayed`.
  virtual void Send(absl::string_view event, absl::string_view data,
                    Clock::time_point origin = {}) = 0;
  // Ends the response after what is queued.
  virtual void Finish() = 0;
  // Runs `on_close` once when the stream ends for any reason (the browser left,
  // Finish, the server stopping), at once if it has ended already. One
  // callback; a second replaces it.
  virtual void OnClose(std::function<void()> on_close) = 0;
};

// One request's way back: exactly one of Reply or StartEvents, from any thread.
class Exchange {
 public:
  virtual ~Exchange() = default;
  virtual void Reply(HttpResponse response) = 0;
  // Sends the headers of an event stream; the stream lives as long as the sink
  // is held or until the browser leaves.
  virtual std::shared_ptr<EventSink> StartEvents() = 0;
};

using HttpHandler = std::function<void(HttpRequest, std::shared_ptr<Exchange>)>;

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_HTTP_MESSAGE_H_
