// A JSON object written straight into the protobuf wire format of google.protobuf.Struct, and
// such bytes set as a message's field.
//
// Views carry the engine's layout as a Struct. Building a Struct message is a map node and a
// string per key at every level, built again for every seat after every event, and it was
// half of the execution service's CPU per action (docs/performance.md). The wire bytes are the
// same on the receiving side: a client parses the field as the Struct it is declared as.
//
//   std::string bytes = JsonToStructWire(view.LayoutToJson());
//   SetFieldWire(seat_view, v1::SeatView::kLayoutFieldNumber, std::move(bytes));
#ifndef BONEYARD_SERVICES_COMMON_STRUCT_WIRE_H_
#define BONEYARD_SERVICES_COMMON_STRUCT_WIRE_H_

#include <string>

#include "google/protobuf/message.h"
#include "nlohmann/json.hpp"

namespace boneyard {

// The serialized google.protobuf.Struct that JsonToStruct(object) would serialize to, up to
// the order of map entries (here the JSON object's order). Numbers become doubles; a
// non-object gives an empty Struct, as JsonToStruct does.
std::string JsonToStructWire(const nlohmann::json& object);

// Sets the message field `field_number` of `message` to the already serialized submessage
// `bytes`: they are kept as an unknown field of that number, which the serializer writes as
// the field itself. The typed field, and bytes set before, are cleared so the wire carries it
// once. For messages that
// are only serialized: in this process the field reads as unset.
void SetFieldWire(google::protobuf::Message& message, int field_number, std::string bytes);

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_STRUCT_WIRE_H_
