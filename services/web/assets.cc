#include "services/web/assets.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace boneyard::web {
namespace {

std::string ContentType(const std::filesystem::path& file) {
  const std::string ext = file.extension().string();
  if (ext == ".html") return "text/html; charset=utf-8";
  if (ext == ".js") return "text/javascript; charset=utf-8";
  if (ext == ".css") return "text/css; charset=utf-8";
  if (ext == ".svg") return "image/svg+xml";
  if (ext == ".png") return "image/png";
  if (ext == ".json") return "application/json";
  if (ext == ".ico") return "image/x-icon";
  return "application/octet-stream";
}

}  // namespace

absl::StatusOr<std::unique_ptr<Assets>> Assets::Load(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code error;
  if (!fs::is_regular_file(fs::path(dir) / "index.html", error)) {
    return absl::NotFoundError(absl::StrCat("--assets_dir: no index.html in ", dir));
  }
  auto assets = std::unique_ptr<Assets>(new Assets());
  for (const fs::directory_entry& entry : fs::recursive_directory_iterator(dir, error)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream in(entry.path(), std::ios::binary);
    std::ostringstream body;
    body << in.rdbuf();
    const std::string url =
        absl::StrCat("/", fs::relative(entry.path(), dir, error).generic_string());
    assets->files_[url] = File{.content_type = ContentType(entry.path()), .body = body.str()};
  }
  if (error) return absl::InternalError(absl::StrCat("--assets_dir: ", error.message()));
  return assets;
}

HttpResponse Assets::Serve(const std::string& path) const {
  auto it = files_.find(path);
  if (it == files_.end()) {
    if (absl::StartsWith(path, "/assets/")) {
      return HttpResponse{
          .status = 404, .content_type = "text/plain", .body = "not found\n", .headers = {}};
    }
    it = files_.find("/index.html");
  }
  return HttpResponse{.status = 200,
                      .content_type = it->second.content_type,
                      .body = it->second.body,
                      .headers = {}};
}

}  // namespace boneyard::web
