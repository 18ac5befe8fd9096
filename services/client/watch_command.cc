// `boneyard watch NAME [--json]`: WatchMatch as a spectator, one line (text or JSON) per public
// view, until the service closes the stream after the view that ends the match. A match played
// by another replica is followed there.
#include <ostream>
#include <string>
#include <vector>

#include "engine/cli/args.h"
#include "engine/cli/common.h"
#include "services/client/channel.h"
#include "services/client/command_common.h"
#include "services/common/replica_router.h"

namespace boneyard::client {

int RunWatch(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed =
      cli::ParseArgs(args, ServiceFlags({{"json", cli::FlagKind::kSwitch}}), 1);
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kWatchUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kWatchUsage);
  absl::StatusOr<std::string> name = MatchNameArg(*parsed);
  if (!name.ok()) return cli::UsageError(io, name.status().message(), kWatchUsage);
  const bool json = parsed->Has("json");

  v1::WatchMatchRequest request;
  request.set_name(*name);
  ReplicaRouter router(ResolveTarget(parsed->Value("target")));
  for (int follows = 0;; ++follows) {
    // A match may last for hours: the stream has no deadline. It ends with the match.
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::WatchMatchResponse>> reader =
        router.StubFor(*name).WatchMatch(&context, request);
    v1::WatchMatchResponse response;
    while (reader->Read(&response)) {
      if (json) {
        io.out << PublicViewToJson(response.view()).dump() << "\n";
      } else {
        io.out << PublicViewLine(response.view()) << "\n";
      }
      io.out.flush();  // a spectator reads along
    }
    const grpc::Status status = reader->Finish();
    // Watched on another replica (docs/scaling.md): it starts again with the view as it is now.
    if (!status.ok() && follows < ReplicaRouter::kMaxFollows && router.Reroute(*name, status)) {
      continue;
    }
    if (!status.ok()) return RpcFailure(io, "WatchMatch", status);
    break;
  }
  return cli::kExitOk;
}

}  // namespace boneyard::client
