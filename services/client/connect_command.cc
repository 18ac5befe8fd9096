// `boneyard connect NAME --token-file F`: one person plays one seat of a hosted match from the
// terminal (or through a pipe), over a Play stream.
//
// The first view is shown whole; after that each event is one line ("#7 seat 1 plays 5-0
// right"), and whenever it is the seat's turn the whole view is shown again with its numbered
// legal actions and a prompt. Answers are read one per line as in `boneyard play`: a number,
// an action's text, `help`/`?`, or `quit`/`exit` (end of input also leaves). The service judges
// every action; a rejection is shown and, while the view it answered is still current, asked
// again. The program ends when the service closes the stream after the match's last view.
//
// The stream is the synchronous gRPC API on the main thread: the program waits either for
// the service (reading) or for the person (prompting), never both, because the service sends
// nothing new while it waits for this seat (a clock's timeout is the exception: its view is
// read after the person answers, and the late action is then rejected).
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine/cli/args.h"
#include "engine/cli/common.h"
#include "services/client/channel.h"
#include "services/client/command_common.h"
#include "services/common/replica_router.h"

namespace boneyard::client {
namespace {

using PlayStream = grpc::ClientReaderWriter<v1::PlayRequest, v1::PlayResponse>;

bool AllDigits(absl::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

bool IsMyTurn(const v1::SeatView& view) {
  return !view.terminal() && view.current_seat() == view.seat() && view.legal_actions_size() > 0;
}

std::string CodeName(int code) {
  return absl::StatusCodeToString(static_cast<absl::StatusCode>(code));
}

class ConnectSession {
 public:
  ConnectSession(std::string match, std::string token, ReplicaRouter& router, cli::Io& io)
      : match_(std::move(match)), token_(std::move(token)), router_(router), io_(io) {}

  int Run() {
    for (int follows = 0;; ++follows) {
      // A person may think for as long as the match's clock allows: no deadline on the stream.
      context_ = std::make_unique<grpc::ClientContext>();
      AddBearerToken(*context_, token_);
      stream_ = router_.StubFor(match_).Play(context_.get());
      v1::PlayRequest hello;
      hello.set_name(match_);
      if (stream_->Write(hello)) {
        v1::PlayResponse response;
        while (stream_->Read(&response)) {
          const bool keep_going =
              response.has_view() ? OnView(response.view()) : OnRejected(response.rejected());
          if (!keep_going) return Leave();
        }
      }
      const grpc::Status status = stream_->Finish();
      // The match is played by another replica (or moved to one, docs/scaling.md): the same
      // seat there; an action left unanswered is judged by the view that comes first.
      if (!status.ok() && follows < ReplicaRouter::kMaxFollows && router_.Reroute(match_, status)) {
        sent_sequence_.reset();
        continue;
      }
      if (!status.ok()) return RpcFailure(io_, "Play", status);
      if (!view_.has_value() || !view_->terminal()) {
        return cli::Fail(io_, static_cast<cli::ExitCode>(kExitService),
                         "Play: the service closed the stream before the match ended");
      }
      return cli::kExitOk;
    }
  }

 private:
  // False when the person leaves.
  bool OnView(const v1::SeatView& view) {
    const bool first = !view_.has_value();
    if (first) {
      io_.out << "connected to " << view.match() << " (" << view.game() << ") as seat "
              << view.seat() << "\n"
              << "Answer with an action's number or its text; 'quit' leaves.\n";
    } else if (view.has_last_event()) {
      io_.out << EventText(view.last_event()) << "\n";
    }
    view_ = view;
    // Any newer view answers the action sent (played, or overtaken by another event).
    if (sent_sequence_.has_value() && view.sequence() > *sent_sequence_) sent_sequence_.reset();
    if (view.terminal()) {
      PrintEnd(view);
      return true;
    }
    if (IsMyTurn(view) && !sent_sequence_.has_value()) return AskAndSend(/*show=*/true);
    // Someone else's turn: show where things stand once, then follow the events.
    if (first) io_.out << "\n" << SeatViewText(view) << "\n";
    io_.out.flush();
    return true;
  }

  bool OnRejected(const v1::ActionRejected& rejected) {
    io_.out << "  '" << rejected.action().text() << "' was rejected ("
            << CodeName(rejected.code()) << "): " << rejected.message() << "\n";
    if (sent_sequence_ == rejected.seen_sequence()) sent_sequence_.reset();
    if (rejected.code() == static_cast<int>(grpc::StatusCode::ABORTED)) {
      io_.out << "  the match moved on; wait for the next view\n";
      io_.out.flush();
      return true;
    }
    if (view_.has_value() && view_->sequence() == rejected.seen_sequence() && IsMyTurn(*view_)) {
      return AskAndSend(/*show=*/false);
    }
    return true;
  }

  void ShowChoices(const v1::SeatView& view) {
    io_.out << "\n" << SeatViewText(view) << "\nyour actions:\n";
    for (int i = 0; i < view.legal_actions_size(); ++i) {
      io_.out << "  " << i + 1 << ") " << view.legal_actions(i).text() << "\n";
    }
  }

  // Asks for an action on the current view and sends it. False when the person leaves.
  bool AskAndSend(bool show) {
    const v1::SeatView& view = *view_;
    if (show) ShowChoices(view);
    std::string line;
    while (true) {
      io_.out << "your move> " << std::flush;
      if (!std::getline(io_.in, line)) {
        io_.out << "\n";
        return false;
      }
      const std::string answer(absl::StripAsciiWhitespace(line));
      // Piped answers are not echoed by a terminal; echo them so the transcript reads well.
      if (!io_.in_is_tty) io_.out << answer << "\n";
      if (answer.empty()) continue;
      const std::string lower = absl::AsciiStrToLower(answer);
      if (lower == "quit" || lower == "exit") return false;
      if (lower == "help" || lower == "?") {
        ShowChoices(view);
        continue;
      }
      std::string action = answer;
      if (AllDigits(answer)) {
        int number = 0;
        if (!absl::SimpleAtoi(answer, &number) || number < 1 ||
            number > view.legal_actions_size()) {
          io_.out << "  no action numbered " << answer << "; choose 1 to "
                  << view.legal_actions_size() << " or type the action\n";
          continue;
        }
        action = view.legal_actions(number - 1).text();
      }
      v1::PlayRequest request;
      request.set_name(match_);
      request.mutable_action()->set_text(action);
      request.set_seen_sequence(view.sequence());
      sent_sequence_ = view.sequence();
      // A failed write means the stream is broken; the next Read says so and Finish says why.
      stream_->Write(request);
      return true;
    }
  }

  void PrintEnd(const v1::SeatView& view) {
    io_.out << "\n" << SeatViewText(view) << "\n\nmatch over\n";
    if (view.has_result()) {
      const v1::MatchResult& result = view.result();
      io_.out << "result: " << ResultText(result) << "\n";
      if (view.seat() < result.ranks_size()) {
        const int rank = result.ranks(view.seat());
        io_.out << (rank == 1 ? std::string("You win!")
                              : absl::StrCat("You finished rank ", rank, "."))
                << "\n";
      }
    } else {
      // Over without a result: an operator aborted it; the abort event holds the reason.
      io_.out << "aborted by the operator";
      if (view.has_last_event()) io_.out << ": " << view.last_event().message();
      io_.out << "\n";
    }
    io_.out.flush();
  }

  int Leave() {
    context_->TryCancel();
    stream_->Finish();  // CANCELLED: we hung up
    io_.out << "You left " << match_
            << "; the match goes on without you (connect again with the same token to resume).\n";
    return cli::kExitOk;
  }

  const std::string match_;
  const std::string token_;
  ReplicaRouter& router_;
  cli::Io& io_;
  // The stream in use and its context (a new pair when the match's replica changes).
  std::unique_ptr<grpc::ClientContext> context_;
  std::unique_ptr<PlayStream> stream_;
  std::optional<v1::SeatView> view_;
  // The sequence number the unanswered action was sent with.
  std::optional<int64_t> sent_sequence_;
};

}  // namespace

int RunConnect(const std::vector<std::string>& args, cli::Io& io) {
  absl::StatusOr<cli::ParsedArgs> parsed = cli::ParseArgs(
      args, ServiceFlags({{"token", cli::FlagKind::kValue}, {"token-file", cli::FlagKind::kValue}}),
      1);
  if (!parsed.ok()) return cli::UsageError(io, parsed.status().message(), kConnectUsage);
  if (parsed->Has("help")) return cli::PrintCommandHelp(io, kConnectUsage);
  absl::StatusOr<std::string> name = MatchNameArg(*parsed);
  if (!name.ok()) return cli::UsageError(io, name.status().message(), kConnectUsage);
  std::string token;
  if (std::optional<int> code = GetSeatToken(*parsed, io, kConnectUsage, token)) return *code;

  return PlaySeat(ResolveTarget(parsed->Value("target")), *name, token, io);
}

int PlaySeat(const std::string& target, const std::string& match, const std::string& token,
             cli::Io& io) {
  ReplicaRouter router(target);
  ConnectSession session(match, token, router, io);
  return session.Run();
}

}  // namespace boneyard::client
