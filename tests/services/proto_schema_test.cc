// Checks of the boneyard.v1 schema (proto/boneyard/v1/) through its generated descriptors:
// the ExecutionService's RPCs and their streaming kinds, AIP conventions (pagination,
// request_id, naming, enums, a comment on everything), that views and records survive binary
// and JSON round trips, and that the schema mirrors the engine's view and record JSON for
// every registered game.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "boneyard/v1/execution.grpc.pb.h"
#include "boneyard/v1/execution.pb.h"
#include "boneyard/v1/game.pb.h"
#include "boneyard/v1/matchmaking.pb.h"
#include "boneyard/v1/ladder.pb.h"
#include "boneyard/v1/ratings.pb.h"
#include "boneyard/v1/tournament.pb.h"
#include "engine/bots/bot.h"
#include "engine/core/action.h"
#include "engine/core/game.h"
#include "engine/core/registry.h"
#include "engine/core/rng.h"
#include "engine/core/view.h"
#include "engine/records/record.h"
#include "google/protobuf/descriptor.h"
#include "google/protobuf/descriptor.pb.h"
#include "google/protobuf/struct.pb.h"
#include "google/protobuf/util/json_util.h"
#include "google/protobuf/util/message_differencer.h"
#include "google/protobuf/util/time_util.h"
#include "grpcpp/grpcpp.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

#ifndef BONEYARD_DESCRIPTOR_SET
#error "BONEYARD_DESCRIPTOR_SET must name proto/'s descriptor set (boneyard_v1.desc)"
#endif

namespace boneyard {
namespace {

namespace pb = ::google::protobuf;
namespace v1 = ::boneyard::v1;
using pb::FieldDescriptor;
using pb::util::MessageDifferencer;
using pb::util::TimeUtil;

// ----- Helpers ------------------------------------------------------------------------------

// The six schema files, through classes that are surely linked into this binary.
const pb::FileDescriptor* GameFile() { return v1::SeatView::descriptor()->file(); }
const pb::FileDescriptor* ExecutionFile() { return v1::CreateMatchRequest::descriptor()->file(); }
const pb::FileDescriptor* MatchmakingFile() { return v1::Ticket::descriptor()->file(); }
const pb::FileDescriptor* TournamentFile() { return v1::Pairing::descriptor()->file(); }
const pb::FileDescriptor* LadderFile() { return v1::Ladder::descriptor()->file(); }
const pb::FileDescriptor* RatingsFile() { return v1::RatingModel::descriptor()->file(); }

const pb::ServiceDescriptor* ExecutionServiceDescriptor() {
  return ExecutionFile()->FindServiceByName("ExecutionService");
}

// Every message of a file, nested ones included.
void CollectMessages(const pb::Descriptor* d, std::vector<const pb::Descriptor*>& out) {
  out.push_back(d);
  for (int i = 0; i < d->nested_type_count(); ++i) CollectMessages(d->nested_type(i), out);
}
std::vector<const pb::Descriptor*> MessagesOf(const pb::FileDescriptor* file) {
  std::vector<const pb::Descriptor*> out;
  for (int i = 0; i < file->message_type_count(); ++i) CollectMessages(file->message_type(i), out);
  return out;
}
// Every enum of a file, nested ones included.
std::vector<const pb::EnumDescriptor*> EnumsOf(const pb::FileDescriptor* file) {
  std::vector<const pb::EnumDescriptor*> out;
  for (int i = 0; i < file->enum_type_count(); ++i) out.push_back(file->enum_type(i));
  for (const pb::Descriptor* d : MessagesOf(file)) {
    for (int i = 0; i < d->enum_type_count(); ++i) out.push_back(d->enum_type(i));
  }
  return out;
}

// "TimeoutPolicy" -> "TIMEOUT_POLICY".
std::string UpperSnake(const std::string& camel) {
  std::string out;
  for (char c : camel) {
    if (std::isupper(static_cast<unsigned char>(c)) && !out.empty()) out += '_';
    out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return out;
}

void ExpectSingular(const pb::Descriptor* d, const std::string& field, FieldDescriptor::Type type) {
  const FieldDescriptor* f = d->FindFieldByName(field);
  ASSERT_NE(f, nullptr) << d->full_name() << " has no field " << field;
  EXPECT_EQ(f->type(), type) << f->full_name() << " is a " << f->type_name();
  EXPECT_FALSE(f->is_repeated()) << f->full_name() << " is repeated";
}

std::string ToJson(const pb::Message& message) {
  std::string json;
  pb::util::JsonPrintOptions options;
  options.preserve_proto_field_names = true;
  const auto status = pb::util::MessageToJsonString(message, &json, options);
  EXPECT_TRUE(status.ok()) << status.ToString();
  return json;
}

template <typename M>
M FromJson(const std::string& json) {
  M message;
  const auto status = pb::util::JsonStringToMessage(json, &message);
  EXPECT_TRUE(status.ok()) << status.ToString() << "\n" << json;
  return message;
}

template <typename M>
M FromBinary(const M& original) {
  std::string bytes;
  EXPECT_TRUE(original.SerializeToString(&bytes));
  M copy;
  EXPECT_TRUE(copy.ParseFromString(bytes));
  return copy;
}

// An engine layout (any JSON object) as a Struct, the way the service carries it.
pb::Struct StructFromJson(const nlohmann::json& object) {
  return FromJson<pb::Struct>(object.dump());
}

// ----- The service --------------------------------------------------------------------------

struct RpcShape {
  std::string input;
  std::string output;
  bool client_streaming;
  bool server_streaming;
};

TEST(ExecutionServiceTest, HasExactlyTheIssuesRpcsWithTheirStreamingKinds) {
  const pb::ServiceDescriptor* service = ExecutionServiceDescriptor();
  ASSERT_NE(service, nullptr);
  EXPECT_EQ(service->full_name(), "boneyard.v1.ExecutionService");
  EXPECT_EQ(v1::ExecutionService::service_full_name(), service->full_name());

  const std::map<std::string, RpcShape> expected = {
      {"CreateMatch", {"CreateMatchRequest", "CreateMatchResponse", false, false}},
      {"GetMatch", {"GetMatchRequest", "Match", false, false}},
      {"ListMatches", {"ListMatchesRequest", "ListMatchesResponse", false, false}},
      {"Play", {"PlayRequest", "PlayResponse", true, true}},
      {"SubmitAction", {"SubmitActionRequest", "SeatView", false, false}},
      {"WatchMatch", {"WatchMatchRequest", "WatchMatchResponse", false, true}},
      {"GetRecord", {"GetRecordRequest", "Record", false, false}},
      {"AbortMatch", {"AbortMatchRequest", "Match", false, false}},
      {"ListParkedResults",
       {"ListParkedResultsRequest", "ListParkedResultsResponse", false, false}},
      {"RetryParkedResult", {"RetryParkedResultRequest", "ParkedResult", false, false}},
      {"DropParkedResult", {"DropParkedResultRequest", "ParkedResult", false, false}},
  };
  std::set<std::string> actual;
  for (int i = 0; i < service->method_count(); ++i) {
    const pb::MethodDescriptor* m = service->method(i);
    actual.insert(m->name());
    auto it = expected.find(m->name());
    if (it == expected.end()) {
      ADD_FAILURE() << "unexpected RPC " << m->name();
      continue;
    }
    EXPECT_EQ(m->input_type()->full_name(), "boneyard.v1." + it->second.input) << m->name();
    EXPECT_EQ(m->output_type()->full_name(), "boneyard.v1." + it->second.output) << m->name();
    EXPECT_EQ(m->client_streaming(), it->second.client_streaming) << m->name();
    EXPECT_EQ(m->server_streaming(), it->second.server_streaming) << m->name();
  }
  std::set<std::string> wanted;
  for (const auto& [name, shape] : expected) wanted.insert(name);
  EXPECT_EQ(actual, wanted);
}

TEST(ExecutionServiceTest, RpcsAreVerbNounWithTheirOwnRequestMessages) {
  const pb::ServiceDescriptor* service = ExecutionServiceDescriptor();
  ASSERT_NE(service, nullptr);
  const std::set<std::string> verbs = {"Create", "Get",   "List",  "Play", "Submit",
                                       "Watch",  "Abort", "Retry", "Drop"};
  for (int i = 0; i < service->method_count(); ++i) {
    const pb::MethodDescriptor* m = service->method(i);
    EXPECT_EQ(m->input_type()->name(), m->name() + "Request");
    bool has_verb = false;
    for (const std::string& verb : verbs) has_verb |= m->name().rfind(verb, 0) == 0;
    EXPECT_TRUE(has_verb) << m->name();
  }
}

TEST(ExecutionServiceTest, EveryListRpcIsPaginated) {
  const pb::ServiceDescriptor* service = ExecutionServiceDescriptor();
  ASSERT_NE(service, nullptr);
  int lists = 0;
  for (int i = 0; i < service->method_count(); ++i) {
    const pb::MethodDescriptor* m = service->method(i);
    if (m->name().rfind("List", 0) != 0) continue;
    ++lists;
    SCOPED_TRACE(m->name());
    ExpectSingular(m->input_type(), "page_size", FieldDescriptor::TYPE_INT32);
    ExpectSingular(m->input_type(), "page_token", FieldDescriptor::TYPE_STRING);
    ExpectSingular(m->output_type(), "next_page_token", FieldDescriptor::TYPE_STRING);
    EXPECT_EQ(m->output_type()->name(), m->name() + "Response");
    // The page itself: one repeated resource field, named after the RPC in snake case
    // ("matches", "parked_results").
    std::string resources;
    for (char c : m->name().substr(4)) {
      if (std::isupper(static_cast<unsigned char>(c)) && !resources.empty()) resources += '_';
      resources += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    const FieldDescriptor* page = m->output_type()->FindFieldByName(resources);
    ASSERT_NE(page, nullptr) << m->output_type()->full_name() << " has no " << resources;
    EXPECT_TRUE(page->is_repeated());
    EXPECT_EQ(page->type(), FieldDescriptor::TYPE_MESSAGE);
  }
  EXPECT_GE(lists, 1);
}

TEST(ExecutionServiceTest, ListMatchesFiltersByStateAndGame) {
  const pb::Descriptor* d = v1::ListMatchesRequest::descriptor();
  ExpectSingular(d, "game", FieldDescriptor::TYPE_STRING);
  ExpectSingular(d, "state", FieldDescriptor::TYPE_ENUM);
  EXPECT_EQ(d->FindFieldByName("state")->enum_type(), v1::Match::State_descriptor());
}

TEST(ExecutionServiceTest, CreateMatchIsIdempotentOnRequestId) {
  ExpectSingular(v1::CreateMatchRequest::descriptor(), "request_id", FieldDescriptor::TYPE_STRING);
  // And hands back one token per player seat.
  const FieldDescriptor* tokens =
      v1::CreateMatchResponse::descriptor()->FindFieldByName("seat_tokens");
  ASSERT_NE(tokens, nullptr);
  EXPECT_TRUE(tokens->is_repeated());
  EXPECT_EQ(tokens->message_type(), v1::SeatToken::descriptor());
}

TEST(ExecutionServiceTest, ResourcesHaveNamesAndStandardTimestamps) {
  for (const pb::Descriptor* d : {v1::Match::descriptor(), v1::Record::descriptor()}) {
    SCOPED_TRACE(d->full_name());
    const FieldDescriptor* name = d->FindFieldByName("name");
    ASSERT_NE(name, nullptr);
    EXPECT_EQ(name->number(), 1);
    EXPECT_EQ(name->type(), FieldDescriptor::TYPE_STRING);
  }
  EXPECT_EQ(v1::Match::State_descriptor()->value_count(), 4);
  for (const char* state : {"STATE_UNSPECIFIED", "ACTIVE", "FINISHED", "ABORTED"}) {
    EXPECT_NE(v1::Match::State_descriptor()->FindValueByName(state), nullptr) << state;
  }
  for (const char* policy :
       {"TIMEOUT_POLICY_UNSPECIFIED", "AUTO_PLAY_DEFAULT_BOT", "AUTO_PLAY_GREEDY", "FORFEIT"}) {
    EXPECT_NE(v1::ClockSettings::TimeoutPolicy_descriptor()->FindValueByName(policy), nullptr)
        << policy;
  }
  // The rename kept the wire: the old name is an alias of the same number, and the new name is
  // the one written.
  EXPECT_EQ(v1::ClockSettings::AUTO_PLAY_DEFAULT_BOT, 1);
  EXPECT_EQ(v1::ClockSettings::AUTO_PLAY_GREEDY, v1::ClockSettings::AUTO_PLAY_DEFAULT_BOT);
  EXPECT_EQ(v1::ClockSettings::TimeoutPolicy_Name(v1::ClockSettings::AUTO_PLAY_DEFAULT_BOT),
            "AUTO_PLAY_DEFAULT_BOT");
  // Every *_time field and every deadline is a Timestamp; every duration a Duration.
  for (const pb::FileDescriptor* file : {GameFile(), ExecutionFile(), MatchmakingFile(), TournamentFile(),
                                         LadderFile(), RatingsFile()}) {
    for (const pb::Descriptor* d : MessagesOf(file)) {
      for (int i = 0; i < d->field_count(); ++i) {
        const FieldDescriptor* f = d->field(i);
        const std::string& n = f->name();
        if ((n.size() > 5 && n.substr(n.size() - 5) == "_time") || n == "deadline") {
          ASSERT_EQ(f->type(), FieldDescriptor::TYPE_MESSAGE) << f->full_name();
          EXPECT_EQ(f->message_type()->full_name(), "google.protobuf.Timestamp") << f->full_name();
        }
      }
    }
  }
  const FieldDescriptor* per_move = v1::ClockSettings::descriptor()->FindFieldByName("per_move");
  EXPECT_EQ(per_move->message_type()->full_name(), "google.protobuf.Duration");
}

// ----- AIP lint -----------------------------------------------------------------------------

TEST(SchemaLintTest, PackageIsVersioned) {
  for (const pb::FileDescriptor* file : {GameFile(), ExecutionFile(), MatchmakingFile(), TournamentFile(),
                                         LadderFile(), RatingsFile()}) {
    EXPECT_EQ(file->package(), "boneyard.v1");
    EXPECT_EQ(file->name().rfind("boneyard/v1/", 0), 0u) << file->name();
    EXPECT_EQ(file->syntax(), pb::FileDescriptor::SYNTAX_PROTO3);
  }
}

TEST(SchemaLintTest, EnumsStartWithUnspecifiedZero) {
  int enums = 0;
  for (const pb::FileDescriptor* file : {GameFile(), ExecutionFile(), MatchmakingFile(), TournamentFile(),
                                         LadderFile(), RatingsFile()}) {
    for (const pb::EnumDescriptor* e : EnumsOf(file)) {
      ++enums;
      ASSERT_GT(e->value_count(), 1) << e->full_name();
      EXPECT_EQ(e->value(0)->number(), 0) << e->full_name();
      EXPECT_EQ(e->value(0)->name(), UpperSnake(e->name()) + "_UNSPECIFIED") << e->full_name();
    }
  }
  EXPECT_GE(enums, 4);
}

TEST(SchemaLintTest, NamesFollowTheStyleGuide) {
  auto is_lower_snake = [](const std::string& s) {
    return !s.empty() && std::islower(static_cast<unsigned char>(s[0])) &&
           std::all_of(s.begin(), s.end(), [](char c) {
             return std::islower(static_cast<unsigned char>(c)) ||
                    std::isdigit(static_cast<unsigned char>(c)) || c == '_';
           });
  };
  auto is_upper_snake = [](const std::string& s) {
    return !s.empty() && std::isupper(static_cast<unsigned char>(s[0])) &&
           std::all_of(s.begin(), s.end(), [](char c) {
             return std::isupper(static_cast<unsigned char>(c)) ||
                    std::isdigit(static_cast<unsigned char>(c)) || c == '_';
           });
  };
  auto is_upper_camel = [](const std::string& s) {
    return !s.empty() && std::isupper(static_cast<unsigned char>(s[0])) &&
           s.find('_') == std::string::npos;
  };
  for (const pb::FileDescriptor* file : {GameFile(), ExecutionFile(), MatchmakingFile(), TournamentFile(),
                                         LadderFile(), RatingsFile()}) {
    for (const pb::Descriptor* d : MessagesOf(file)) {
      if (d->options().map_entry()) continue;
      EXPECT_TRUE(is_upper_camel(d->name())) << d->full_name();
      for (int i = 0; i < d->field_count(); ++i) {
        EXPECT_TRUE(is_lower_snake(d->field(i)->name())) << d->field(i)->full_name();
      }
    }
    for (const pb::EnumDescriptor* e : EnumsOf(file)) {
      EXPECT_TRUE(is_upper_camel(e->name())) << e->full_name();
      for (int i = 0; i < e->value_count(); ++i) {
        EXPECT_TRUE(is_upper_snake(e->value(i)->name())) << e->value(i)->full_name();
      }
    }
  }
}

// The descriptor set proto/ writes with --include_source_info keeps the comments, which the
// compiled-in descriptors drop.
class DescriptorSetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ifstream in(BONEYARD_DESCRIPTOR_SET, std::ios::binary);
    ASSERT_TRUE(in) << "cannot read " << BONEYARD_DESCRIPTOR_SET;
    ASSERT_TRUE(set_.ParseFromIstream(&in)) << BONEYARD_DESCRIPTOR_SET;
    for (const pb::FileDescriptorProto& file : set_.file()) {
      ASSERT_NE(pool_.BuildFile(file), nullptr) << file.name();
    }
  }

  pb::FileDescriptorSet set_;
  pb::DescriptorPool pool_;
};

TEST_F(DescriptorSetTest, MatchesTheCompiledSchema) {
  for (const pb::FileDescriptor* compiled : {GameFile(), ExecutionFile(), MatchmakingFile(), TournamentFile(),
                                         LadderFile(), RatingsFile()}) {
    const pb::FileDescriptor* from_set = pool_.FindFileByName(compiled->name());
    ASSERT_NE(from_set, nullptr) << compiled->name();
    pb::FileDescriptorProto a, b;
    compiled->CopyTo(&a);
    compiled->CopyJsonNameTo(&a);
    from_set->CopyTo(&b);
    from_set->CopyJsonNameTo(&b);
    std::string differences;
    MessageDifferencer differencer;
    differencer.ReportDifferencesToString(&differences);
    EXPECT_TRUE(differencer.Compare(a, b))
        << compiled->name() << " differs from " << BONEYARD_DESCRIPTOR_SET << ": "
        << differences;
  }
}

TEST_F(DescriptorSetTest, EverythingHasAComment) {
  int checked = 0;
  auto expect_comment = [&](const auto* descriptor) {
    ++checked;
    pb::SourceLocation location;
    ASSERT_TRUE(descriptor->GetSourceLocation(&location)) << descriptor->full_name();
    EXPECT_FALSE(location.leading_comments.empty())
        << descriptor->full_name() << " has no comment";
  };
  for (const char* name : {"boneyard/v1/game.proto", "boneyard/v1/execution.proto",
                           "boneyard/v1/matchmaking.proto", "boneyard/v1/tournament.proto",
                           "boneyard/v1/ladder.proto", "boneyard/v1/ratings.proto"}) {
    const pb::FileDescriptor* file = pool_.FindFileByName(name);
    ASSERT_NE(file, nullptr) << name;
    for (int i = 0; i < file->service_count(); ++i) {
      expect_comment(file->service(i));
      for (int j = 0; j < file->service(i)->method_count(); ++j) {
        expect_comment(file->service(i)->method(j));
      }
    }
    std::vector<const pb::Descriptor*> messages = MessagesOf(file);
    for (const pb::Descriptor* d : messages) {
      if (d->options().map_entry()) continue;
      expect_comment(d);
      for (int i = 0; i < d->field_count(); ++i) expect_comment(d->field(i));
      for (int i = 0; i < d->real_oneof_decl_count(); ++i) expect_comment(d->oneof_decl(i));
    }
    for (const pb::EnumDescriptor* e : EnumsOf(file)) {
      expect_comment(e);
      for (int i = 0; i < e->value_count(); ++i) expect_comment(e->value(i));
    }
  }
  EXPECT_GT(checked, 150);
}

TEST_F(DescriptorSetTest, EveryRpcDocumentsItsErrors) {
  const pb::ServiceDescriptor* service = pool_.FindServiceByName("boneyard.v1.ExecutionService");
  ASSERT_NE(service, nullptr);
  for (int i = 0; i < service->method_count(); ++i) {
    const pb::MethodDescriptor* m = service->method(i);
    pb::SourceLocation location;
    ASSERT_TRUE(m->GetSourceLocation(&location)) << m->name();
    EXPECT_NE(location.leading_comments.find("Errors"), std::string::npos) << m->name();
  }
  // The issue's codes, each on the RPCs where it applies.
  auto comment_of = [&](const std::string& rpc) {
    pb::SourceLocation location;
    service->FindMethodByName(rpc)->GetSourceLocation(&location);
    return location.leading_comments;
  };
  for (const std::string rpc : {"Play", "SubmitAction"}) {
    for (const char* code : {"INVALID_ARGUMENT", "FAILED_PRECONDITION", "ABORTED", "NOT_FOUND",
                             "UNAUTHENTICATED", "PERMISSION_DENIED"}) {
      EXPECT_NE(comment_of(rpc).find(code), std::string::npos) << rpc << " " << code;
    }
  }
  for (const std::string rpc : {"GetMatch", "WatchMatch", "GetRecord", "AbortMatch"}) {
    EXPECT_NE(comment_of(rpc).find("NOT_FOUND"), std::string::npos) << rpc;
  }
  EXPECT_NE(comment_of("CreateMatch").find("ALREADY_EXISTS"), std::string::npos);
  for (const std::string rpc : {"CreateMatch", "AbortMatch"}) {
    EXPECT_NE(comment_of(rpc).find("PERMISSION_DENIED"), std::string::npos) << rpc;
  }
}

// The matchmaking service's schema (served from a later step of issue 19): every RPC documents
// its errors, every list pages, the codes the issue names are where they apply.
// The lint over every service of the six files (issue 43): each RPC is VerbNoun with a request
// message of its own named after it, names the status codes it returns in its comment, and a
// List RPC pages. A new RPC that does not follow them fails here.
TEST_F(DescriptorSetTest, EveryRpcOfEveryFileFollowsTheConventions) {
  const std::vector<std::string> codes = {
      "INVALID_ARGUMENT", "NOT_FOUND",          "ALREADY_EXISTS", "FAILED_PRECONDITION",
      "ABORTED",          "PERMISSION_DENIED",  "UNAUTHENTICATED", "RESOURCE_EXHAUSTED",
      "UNAVAILABLE",      "DEADLINE_EXCEEDED"};
  int rpcs = 0;
  for (const char* name : {"boneyard/v1/game.proto", "boneyard/v1/execution.proto",
                           "boneyard/v1/matchmaking.proto", "boneyard/v1/tournament.proto",
                           "boneyard/v1/ladder.proto", "boneyard/v1/ratings.proto"}) {
    const pb::FileDescriptor* file = pool_.FindFileByName(name);
    ASSERT_NE(file, nullptr) << name;
    for (int i = 0; i < file->service_count(); ++i) {
      for (int j = 0; j < file->service(i)->method_count(); ++j) {
        const pb::MethodDescriptor* m = file->service(i)->method(j);
        ++rpcs;
        EXPECT_TRUE(std::isupper(static_cast<unsigned char>(m->name()[0]))) << m->full_name();
        EXPECT_EQ(m->input_type()->name(), m->name() + "Request") << m->full_name();
        pb::SourceLocation location;
        ASSERT_TRUE(m->GetSourceLocation(&location)) << m->full_name();
        EXPECT_TRUE(std::any_of(codes.begin(), codes.end(), [&](const std::string& code) {
          return location.leading_comments.find(code) != std::string::npos;
        })) << m->full_name() << " names none of the status codes it returns";
        if (m->name().rfind("List", 0) == 0) {
          EXPECT_NE(m->input_type()->FindFieldByName("page_size"), nullptr) << m->full_name();
          EXPECT_NE(m->input_type()->FindFieldByName("page_token"), nullptr) << m->full_name();
          EXPECT_NE(m->output_type()->FindFieldByName("next_page_token"), nullptr)
              << m->full_name();
        }
      }
    }
  }
  EXPECT_GE(rpcs, 62);  // the six files' RPCs today
}

TEST_F(DescriptorSetTest, MatchmakingRpcsDocumentTheirErrorsAndListsPage) {
  const pb::ServiceDescriptor* service =
      pool_.FindServiceByName("boneyard.v1.MatchmakingService");
  ASSERT_NE(service, nullptr);
  auto comment_of = [&](const pb::MethodDescriptor* m) {
    pb::SourceLocation location;
    m->GetSourceLocation(&location);
    return location.leading_comments;
  };
  for (int i = 0; i < service->method_count(); ++i) {
    const pb::MethodDescriptor* m = service->method(i);
    EXPECT_NE(comment_of(m).find("Errors"), std::string::npos) << m->name();
    if (m->name().rfind("List", 0) == 0) {
      const pb::Descriptor* request = m->input_type();
      EXPECT_NE(request->FindFieldByName("page_size"), nullptr) << m->name();
      EXPECT_NE(request->FindFieldByName("page_token"), nullptr) << m->name();
      EXPECT_NE(m->output_type()->FindFieldByName("next_page_token"), nullptr) << m->name();
    }
  }
  auto comment = [&](const char* rpc) { return comment_of(service->FindMethodByName(rpc)); };
  // Bad input the issue names: an unknown queue or player, rules the game rejects, a party too
  // large for the format, a second ticket, someone else's ticket, a wrong token.
  EXPECT_NE(comment("CreateTicket").find("NOT_FOUND"), std::string::npos);
  EXPECT_NE(comment("CreateTicket").find("a party larger"), std::string::npos);
  EXPECT_NE(comment("CreateTicket").find("already has a live ticket"), std::string::npos);
  EXPECT_NE(comment("CreateQueue").find("rules the game rejects"), std::string::npos);
  EXPECT_NE(comment("CancelTicket").find("PERMISSION_DENIED"), std::string::npos);
  EXPECT_NE(comment("GetPlayer").find("NOT_FOUND"), std::string::npos);
  EXPECT_TRUE(service->FindMethodByName("WatchTicket")->server_streaming());
}

// ----- Round trips --------------------------------------------------------------------------

// A Muggins-like table: nested objects, arrays, nulls, bools and numbers.
const char kMugginsLayout[] = R"({
  "line": [{"tile": "6-4", "flipped": false}, {"tile": "5-5", "flipped": true}],
  "spinner_index": 1, "spinner": "5-5", "up": [], "down": [],
  "ends": {"left": {"pip": 6, "double": false}, "right": {"pip": 5, "double": true},
           "up": null, "down": null},
  "arms_open": false, "count": 10, "void_pips": [3, 2], "unclaimed": null
})";

v1::MatchEvent SampleEvent() {
  v1::MatchEvent event;
  event.set_sequence(17);
  event.set_seat(1);
  event.mutable_action()->set_text("5-5 right");
  event.set_reason(v1::MatchEvent::PLAYED);
  event.set_round(2);
  *event.mutable_effect() = StructFromJson({{"points", 10}});
  *event.mutable_turn_start_time() = TimeUtil::SecondsToTimestamp(1'700'000'000);
  *event.mutable_create_time() = TimeUtil::MillisecondsToTimestamp(1'700'000'001'250);
  return event;
}

v1::SeatView SampleSeatView() {
  v1::SeatView view;
  view.set_match("matches/8f3c2a");
  view.set_game("muggins");
  view.set_seat(0);
  view.set_sequence(17);
  view.set_round(2);
  view.set_current_seat(0);
  for (const char* tile : {"6-6", "4-1", "3-0", "6-4'"}) view.add_hand(tile);
  for (int count : {4, 5}) view.add_hand_counts(count);
  view.set_boneyard_count(12);
  for (int score : {115, 90}) view.add_scores(score);
  for (const char* action : {"6-6 left", "4-1 right", "draw"}) {
    view.add_legal_actions()->set_text(action);
  }
  *view.mutable_layout() = StructFromJson(nlohmann::json::parse(kMugginsLayout));
  *view.mutable_deadline() = TimeUtil::MillisecondsToTimestamp(1'700'000'031'250);
  *view.mutable_last_event() = SampleEvent();
  return view;
}

v1::MatchResult SampleResult() {
  v1::MatchResult result;
  for (int s : {250, 135, 250, 135}) result.add_scores(s);
  for (int r : {1, 2, 1, 2}) result.add_ranks(r);
  result.add_winners(0);
  result.add_winners(2);
  for (const char* id : {"ada", "", "grace", ""}) result.add_player_ids(id);
  v1::Team* team = result.add_teams();
  team->add_seats(0);
  team->add_seats(2);
  team = result.add_teams();
  team->add_seats(1);
  team->add_seats(3);
  *result.mutable_details() = StructFromJson({{"tiles_left", {0, 3, 0, 2}}, {"won", true}});
  return result;
}

v1::Record SampleRecord() {
  v1::Record record;
  record.set_name("matches/8f3c2a/record");
  record.set_game("muggins");
  auto& rules = *record.mutable_rules();
  rules["players"].set_int_value(4);
  rules["teams"].set_bool_value(true);
  rules["target"].set_int_value(250);
  rules["preset"].set_string_value("partners");
  record.set_seed(0xFFFF'FFFF'FFFF'FFF0ULL);  // beyond int64 and beyond a double's precision
  *record.mutable_teams() = SampleResult().teams();
  for (const char* label : {"ada", "greedy", "grace", "random"}) record.add_seats(label);
  v1::Record::Round* round = record.add_rounds();
  for (const auto& hand : std::vector<std::vector<const char*>>{
           {"6-4", "5-5", "3-2", "1-0", "6-6"}, {"6-5", "5-0", "4-1", "3-3", "2-0"},
           {"6-1", "0-0", "4-4", "2-1", "5-2"}, {"6-3", "5-4", "4-2", "3-1", "1-1"}}) {
    v1::Hand* h = round->mutable_deal()->add_hands();
    for (const char* tile : hand) h->add_tiles(tile);
  }
  for (const char* tile : {"6-0", "5-3", "5-1", "4-3", "4-0", "3-0", "2-2", "6-2"}) {
    round->mutable_deal()->add_boneyard(tile);
  }
  for (const auto& [seat, action] : std::vector<std::pair<int, const char*>>{
           {0, "5-5"}, {1, "5-0 right"}, {2, "draw"}}) {
    v1::Record::RecordedAction* a = round->add_actions();
    a->set_seat(seat);
    a->set_action(action);
  }
  record.add_rounds()->add_actions()->set_action("6-6");  // a round dealt from the seed
  *record.mutable_result() = SampleResult();
  return record;
}

TEST(RoundTripTest, SeatViewThroughBinary) {
  const v1::SeatView view = SampleSeatView();
  EXPECT_TRUE(MessageDifferencer::Equals(view, FromBinary(view)));
}

TEST(RoundTripTest, SeatViewThroughJsonKeepsTheLayoutAsPlainJson) {
  v1::SeatView view = SampleSeatView();
  *view.mutable_result() = SampleResult();
  const std::string json = ToJson(view);
  const v1::SeatView back = FromJson<v1::SeatView>(json);
  EXPECT_TRUE(MessageDifferencer::Equals(view, back)) << json;

  const nlohmann::json parsed = nlohmann::json::parse(json);
  EXPECT_EQ(parsed["layout"], nlohmann::json::parse(kMugginsLayout));
  EXPECT_EQ(parsed["hand"], nlohmann::json({"6-6", "4-1", "3-0", "6-4'"}));
  EXPECT_EQ(parsed["legal_actions"][2], nlohmann::json({{"text", "draw"}}));
  EXPECT_EQ(parsed["deadline"], "2023-11-14T22:13:51.250Z");
  EXPECT_EQ(parsed["last_event"]["reason"], "PLAYED");
  EXPECT_EQ(parsed["last_event"]["effect"], nlohmann::json({{"points", 10}}));
}

TEST(RoundTripTest, PublicViewHoldsNoHandNorLegalActions) {
  const pb::Descriptor* seat = v1::SeatView::descriptor();
  const pb::Descriptor* pub = v1::PublicView::descriptor();
  EXPECT_EQ(pub->FindFieldByName("hand"), nullptr);
  EXPECT_EQ(pub->FindFieldByName("legal_actions"), nullptr);
  EXPECT_EQ(pub->FindFieldByName("seat"), nullptr);
  // Everything else a seat sees, a spectator sees too, with the same type.
  for (int i = 0; i < seat->field_count(); ++i) {
    const std::string& name = seat->field(i)->name();
    if (name == "hand" || name == "legal_actions" || name == "seat") continue;
    const FieldDescriptor* f = pub->FindFieldByName(name);
    ASSERT_NE(f, nullptr) << "PublicView lacks " << name;
    EXPECT_EQ(f->type(), seat->field(i)->type()) << name;
    EXPECT_EQ(f->is_repeated(), seat->field(i)->is_repeated()) << name;
  }
}

TEST(RoundTripTest, RecordThroughBinaryAndJson) {
  const v1::Record record = SampleRecord();
  EXPECT_TRUE(MessageDifferencer::Equals(record, FromBinary(record)));

  const std::string json = ToJson(record);
  EXPECT_TRUE(MessageDifferencer::Equals(record, FromJson<v1::Record>(json))) << json;
  const nlohmann::json parsed = nlohmann::json::parse(json);
  // 64-bit integers travel as JSON strings, so the seed survives exactly.
  EXPECT_EQ(parsed["seed"], "18446744073709551600");
  EXPECT_EQ(parsed["rules"]["teams"], nlohmann::json({{"bool_value", true}}));
  EXPECT_EQ(parsed["rounds"][0]["deal"]["hands"][0]["tiles"][1], "5-5");
  EXPECT_FALSE(parsed["rounds"][1].contains("deal"));
  EXPECT_EQ(parsed["result"]["details"]["tiles_left"], nlohmann::json({0, 3, 0, 2}));
}

TEST(RoundTripTest, RecordSeedPresenceIsKept) {
  v1::Record record = SampleRecord();
  record.clear_seed();
  EXPECT_FALSE(FromBinary(record).has_seed());
  record.set_seed(0);
  EXPECT_TRUE(FromBinary(record).has_seed());
  EXPECT_TRUE(FromJson<v1::Record>(ToJson(record)).has_seed());
}

TEST(RoundTripTest, CreateMatchRequestThroughJson) {
  v1::CreateMatchRequest request;
  request.set_game("muggins");
  (*request.mutable_rules())["preset"].set_string_value("partners");
  request.add_seats()->mutable_player()->set_player_id("ada");
  request.add_seats()->mutable_bot()->set_kind("greedy");
  request.add_seats()->mutable_player()->set_player_id("grace");
  v1::Bot* bot = request.add_seats()->mutable_bot();
  bot->set_kind("random");
  bot->set_level(0);
  *request.mutable_clock()->mutable_per_move() = TimeUtil::SecondsToDuration(30);
  request.mutable_clock()->set_timeout_policy(v1::ClockSettings::FORFEIT);
  request.set_request_id("5f0c6d1e-3b1a-4c9e-9a51-2f6b8e1d7c40");
  const std::string json = ToJson(request);
  EXPECT_TRUE(MessageDifferencer::Equals(request, FromJson<v1::CreateMatchRequest>(json))) << json;
  EXPECT_EQ(nlohmann::json::parse(json)["clock"]["per_move"], "30s");
}

// ----- The engine's JSON fits the schema, for every registered game -------------------------

// Plays random moves of `game` and calls `visit` on the state before every move and at the end.
template <typename Visit>
void RandomPlayout(const Game& game, uint64_t seed, int max_moves, Visit visit) {
  auto state = game.NewMatch(seed);
  ASSERT_TRUE(state.ok()) << state.status();
  Rng rng(seed);
  ActionList legal;
  for (int move = 0; move < max_moves && !(*state)->IsTerminal(); ++move) {
    visit(**state);
    legal.clear();
    (*state)->LegalActions(legal);
    ASSERT_FALSE(legal.empty());
    (*state)->Apply(legal[static_cast<int>(rng.Below(static_cast<uint32_t>(legal.size())))]);
  }
  visit(**state);
}

TEST(EngineMirrorTest, EveryGamesViewFitsSeatViewAndItsLayoutAStruct) {
  const GameRegistry& registry = DefaultRegistry();
  ASSERT_FALSE(registry.Names().empty());
  for (const std::string& name : registry.Names()) {
    SCOPED_TRACE(name);
    auto game = registry.CreateGame(name, RuleText{});
    ASSERT_TRUE(game.ok()) << game.status();
    int views = 0;
    RandomPlayout(**game, 7, 400, [&](const State& state) {
      for (int seat = kSpectator; seat < state.game().num_seats(); ++seat) {
        const nlohmann::json j = state.ViewFor(seat)->ToJson();
        ++views;
        // Every field of the engine's view has its namesake in SeatView.
        for (const auto& [key, value] : j.items()) {
          EXPECT_NE(v1::SeatView::descriptor()->FindFieldByName(key), nullptr)
              << "SeatView has no field for the engine view's \"" << key << "\"";
        }
        // The layout is a JSON object and survives Struct and back unchanged.
        ASSERT_TRUE(j["layout"].is_object()) << j["layout"].dump();
        const pb::Struct layout = StructFromJson(j["layout"]);
        EXPECT_EQ(nlohmann::json::parse(ToJson(FromBinary(layout))), j["layout"]);
        // The hand and the legal actions are notation strings.
        v1::SeatView view;
        for (const auto& tile : j["hand"]) view.add_hand(tile.get<std::string>());
        for (const auto& action : j["legal_actions"]) {
          view.add_legal_actions()->set_text(action.get<std::string>());
        }
        *view.mutable_layout() = layout;
        EXPECT_TRUE(MessageDifferencer::Equals(view, FromJson<v1::SeatView>(ToJson(view))));
      }
    });
    EXPECT_GT(views, 0);
  }
}

// Checks that every key of the engine's record JSON `j` has a field of that name in `d`,
// recursing into objects and arrays of objects.
void ExpectMirrors(const nlohmann::json& j, const pb::Descriptor* d, const std::string& path) {
  for (const auto& [key, value] : j.items()) {
    const FieldDescriptor* f = d->FindFieldByName(key);
    ASSERT_NE(f, nullptr) << d->full_name() << " has no field for the record's " << path << key;
    if (f->type() != FieldDescriptor::TYPE_MESSAGE || f->is_map()) continue;
    if (f->message_type()->full_name() == "google.protobuf.Struct") continue;
    const nlohmann::json* object = &value;
    if (value.is_array()) {
      if (value.empty()) continue;
      object = &value[0];
    }
    if (object->is_object()) ExpectMirrors(*object, f->message_type(), path + key + ".");
  }
}

TEST(EngineMirrorTest, RecordMirrorsTheEngineRecordJson) {
  const GameRegistry& registry = DefaultRegistry();
  for (const std::string& name : registry.Names()) {
    SCOPED_TRACE(name);
    auto game = registry.CreateGame(name, RuleText{});
    ASSERT_TRUE(game.ok()) << game.status();
    // The game's default bot in every seat: bots that play to win end the match.
    const std::string bot_name = registry.Find(name)->default_bot;
    std::vector<std::string> labels((*game)->num_seats(), bot_name);
    std::vector<std::unique_ptr<Bot>> bots;
    for (int seat = 0; seat < (*game)->num_seats(); ++seat) {
      absl::StatusOr<std::unique_ptr<Bot>> bot = DefaultBots().Make(bot_name, **game, 11 + seat);
      ASSERT_TRUE(bot.ok()) << bot.status();
      bots.push_back(*std::move(bot));
    }
    auto state = (*game)->NewMatch(11);
    ASSERT_TRUE(state.ok());
    RecordBuilder builder(**state, 11, labels);
    ActionList legal;
    for (int move = 0; move < 5000 && !(*state)->IsTerminal(); ++move) {
      legal.clear();
      (*state)->LegalActions(legal);
      const int seat = (*state)->CurrentSeat();
      const Action a = bots[seat]->ChooseAction(*(*state)->ViewFor(seat), legal.span());
      builder.Add(**state, a);
      (*state)->Apply(a);
    }
    ASSERT_TRUE((*state)->IsTerminal());
    Record record = builder.Build(**state);
    if (record.teams.empty()) record.teams = {{0}};  // so the key is present to check
    const nlohmann::json j = RecordToJson(record);
    ASSERT_TRUE(j.contains("result"));
    ExpectMirrors(j, v1::Record::descriptor(), "");
    // Every rule value fits a RuleValue, as its own kind.
    for (const auto& [option, value] : j["rules"].items()) {
      EXPECT_TRUE(value.is_boolean() || value.is_number_integer() || value.is_string()) << option;
    }
  }
}

// ----- The generated gRPC code, in process --------------------------------------------------

// Answers each PlayRequest with a view whose sequence is the request's, and reports the bearer
// token it was called with as the view's match name.
class EchoPlayService final : public v1::ExecutionService::Service {
 public:
  grpc::Status Play(grpc::ServerContext* context,
                    grpc::ServerReaderWriter<v1::PlayResponse, v1::PlayRequest>* stream) override {
    const auto& metadata = context->client_metadata();
    const auto it = metadata.find("authorization");
    if (it == metadata.end()) return {grpc::StatusCode::UNAUTHENTICATED, "no token"};
    const std::string token(it->second.data(), it->second.size());
    v1::PlayRequest request;
    while (stream->Read(&request)) {
      v1::PlayResponse response;
      if (!request.has_action()) {
        response.mutable_view()->set_match(token);
      } else {
        v1::ActionRejected* rejected = response.mutable_rejected();
        *rejected->mutable_action() = request.action();
        rejected->set_seen_sequence(request.seen_sequence());
        rejected->set_code(grpc::StatusCode::ABORTED);
      }
      stream->Write(response);
    }
    return grpc::Status::OK;
  }
};

TEST(GeneratedGrpcTest, PlayIsABidirectionalStreamCarryingBearerMetadata) {
  EchoPlayService service;
  grpc::ServerBuilder builder;
  builder.RegisterService(&service);
  std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
  ASSERT_NE(server, nullptr);
  auto stub = v1::ExecutionService::NewStub(server->InProcessChannel(grpc::ChannelArguments()));

  {
    grpc::ClientContext context;
    context.AddMetadata("authorization", "Bearer seat-token");
    context.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(10));
    auto stream = stub->Play(&context);
    v1::PlayRequest hello;
    hello.set_name("matches/8f3c2a");
    ASSERT_TRUE(stream->Write(hello));
    v1::PlayResponse response;
    ASSERT_TRUE(stream->Read(&response));
    EXPECT_EQ(response.view().match(), "Bearer seat-token");

    v1::PlayRequest play;
    play.mutable_action()->set_text("draw");
    play.set_seen_sequence(3);
    ASSERT_TRUE(stream->Write(play));
    ASSERT_TRUE(stream->Read(&response));
    ASSERT_TRUE(response.has_rejected());
    EXPECT_EQ(response.rejected().action().text(), "draw");
    EXPECT_EQ(response.rejected().seen_sequence(), 3);
    EXPECT_EQ(response.rejected().code(), grpc::StatusCode::ABORTED);
    ASSERT_TRUE(stream->WritesDone());
    EXPECT_TRUE(stream->Finish().ok());
  }
  {
    // Unimplemented RPCs answer UNIMPLEMENTED, the server's default.
    grpc::ClientContext context;
    v1::GetMatchRequest request;
    request.set_name("matches/8f3c2a");
    v1::Match match;
    EXPECT_EQ(stub->GetMatch(&context, request, &match).error_code(),
              grpc::StatusCode::UNIMPLEMENTED);
  }
  server->Shutdown();
}

}  // namespace
}  // namespace boneyard
