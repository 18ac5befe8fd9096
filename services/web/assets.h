// The pages' built files (services/web/frontend, bundled at build time), read
// into memory at start-up and served as they are: `/assets/...` by name, every
// other page path as index.html (the page routes on the path itself). Nothing
// is read from disk per request, so no request path can reach a file outside
// the folder.
#ifndef BONEYARD_SERVICES_WEB_ASSETS_H_
#define BONEYARD_SERVICES_WEB_ASSETS_H_

#include <map>
#include <memory>
#include <string>

#include "absl/status/statusor.h"
#include "services/web/http_message.h"

namespace boneyard::web {

class Assets {
 public:
  // Reads every file under `dir` (which must hold index.html). NOT_FOUND
  // without it.
  static absl::StatusOr<std::unique_ptr<Assets>> Load(const std::string& dir);

  // The answer to GET `path` (a path not under /api/).
  HttpResponse Serve(const std::string& path) const;

 private:
  struct File {
    std::string content_type;
    std::string body;
  };
  std::map<std::string, File> files_;  // by URL path, "/assets/app.js"
};

}  // namespace boneyard::web

#endif  // BONEYARD_SERVICES_WEB_ASSETS_H_
