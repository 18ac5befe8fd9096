// The web service's HTTP/1.1 server on Boost.Beast: keep-alive connections,
// each on its own strand, served by a few threads; a request goes to the
// handler as an HttpRequest and its answer comes back through the Exchange from
// any thread. An event stream keeps its connection (no request follows it) and
// costs a socket and a small queue, not a thread, so thousands of browsers can
// watch at once.
#ifndef BONEYARD_SERVICES_WEB_HTTP_SERVER_H_
#define BONEYARD_SERVICES_WEB_HTTP_SERVER_H_

#include <functional>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "services/web/http_message.h"

namespace boneyard::web {

struct HttpServerOptions {
  std::string listen_address = "127.0.0.1:8080";  // host:port; port 0 picks a free one
  int threads = 2;
  std::size_t max_body_bytes = 64 * 1024;  // larger requests are 413
  // Called with the seconds from a timed event's origin to its write (EventSink::Send), and
  // with +1/-1 as event streams open and close; either may be empty.
  std::function<void(double seconds)> on_relayed = nullptr;
  std::function<void(int delta)> on_streams = nullptr;
  // Share the port with other web replicas on this machine (SO_REUSEPORT; deploy/local/up.sh
  // --replicas): the kernel spreads new connections over them.
  bool reuse_port = false;
};

class HttpServer {
 public:
  // Binds and starts serving; INVALID_ARGUMENT for a malformed address,
  // UNAVAILABLE when it cannot bind.
  static absl::StatusOr<std::unique_ptr<HttpServer>> Start(HttpServerOptions options,
                                                           HttpHandler handler);
  virtual ~HttpServer() = default;
  virtual int port() const = 0;
  // Stops accepting, closes every connection (event streams end) and joins the
  // threads.
  virtual void Stop() = 0;
};

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_HTTP_SERVER_H_
