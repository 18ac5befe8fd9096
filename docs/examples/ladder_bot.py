#!/usr/bin/env python3
"""A remote bot account on a boneyard ladder, in Python with grpcio (docs/bots.md).

It joins a ladder answering its own challenges, watches its events (LadderService.WatchEvents,
resuming from the last sequence it saw), accepts what it is offered while it plays fewer than
--max-concurrent matches, plays each match it is seated in over ExecutionService.Play (a
uniformly random legal action), and exits once --matches matches have ended.

The message classes come from protoc's Python generator, run on the project's schema:

    protoc -I proto --python_out=OUT proto/boneyard/v1/*.proto
    python3 docs/examples/ladder_bot.py --protos OUT --matchmaking 127.0.0.1:50071 \\
        --token-file robo.token --ladder ladders/muggins --matches 3

Debian's packages: python3-grpcio and python3-protobuf.
"""
import argparse
import random
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--protos", required=True, help="where protoc --python_out wrote")
    parser.add_argument("--matchmaking", default="127.0.0.1:50071")
    parser.add_argument("--token-file", required=True, help="the bot account's token")
    parser.add_argument("--ladder", required=True, help="ladders/{id}")
    parser.add_argument("--matches", type=int, default=0, help="stop after this many (0: never)")
    parser.add_argument("--max-concurrent", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    sys.path.insert(0, args.protos)

    import grpc
    from boneyard.v1 import execution_pb2, ladder_pb2, matchmaking_pb2

    with open(args.token_file) as f:
        token = f.read().strip()
    auth = (("authorization", "Bearer " + token),)
    channel = grpc.insecure_channel(args.matchmaking)

    def unary(service, method, response_type):
        return channel.unary_unary(
            "/boneyard.v1.%s/%s" % (service, method),
            request_serializer=lambda m: m.SerializeToString(),
            response_deserializer=response_type.FromString)

    get_player = unary("MatchmakingService", "GetPlayer", matchmaking_pb2.PlayerAccount)
    join = unary("LadderService", "JoinLadder", ladder_pb2.LadderMember)
    accept = unary("LadderService", "AcceptChallenge", ladder_pb2.Challenge)
    decline = unary("LadderService", "DeclineChallenge", ladder_pb2.Challenge)
    watch = channel.unary_stream(
        "/boneyard.v1.LadderService/WatchEvents",
        request_serializer=lambda m: m.SerializeToString(),
        response_deserializer=ladder_pb2.LadderEvent.FromString)

    me = get_player(matchmaking_pb2.GetPlayerRequest(name="players/me"), metadata=auth).name
    join(ladder_pb2.JoinLadderRequest(
        ladder=args.ladder,
        accept=ladder_pb2.BotAcceptRules(accept_casual=True,
                                         max_concurrent=args.max_concurrent,
                                         answer_myself=True)), metadata=auth)
    print("%s joined %s" % (me, args.ladder), flush=True)

    rng = random.Random(args.seed)
    lock = threading.Lock()
    playing = {}  # match name -> thread
    ended = []  # match names, in the order they ended

    def play(target, match, seat_token):
        """Plays one seat to the end: a hello, then a legal action on each view of its turn."""
        execution = grpc.insecure_channel(target)
        play_rpc = execution.stream_stream(
            "/boneyard.v1.ExecutionService/Play",
            request_serializer=lambda m: m.SerializeToString(),
            response_deserializer=execution_pb2.PlayResponse.FromString)
        outgoing = []
        ready = threading.Condition()

        def requests():
            hello = execution_pb2.PlayRequest(name=match)
            hello.view_mask.paths.extend(
                ["seat", "sequence", "current_seat", "terminal", "legal_actions", "last_event"])
            yield hello
            while True:
                with ready:
                    while not outgoing:
                        ready.wait()
                    request = outgoing.pop(0)
                if request is None:
                    return
                yield request

        rank = None
        try:
            for response in play_rpc(requests(), metadata=(("authorization",
                                                            "Bearer " + seat_token),)):
                if not response.HasField("view"):
                    continue  # a rejection: the next view says where the match stands
                view = response.view
                if view.terminal:
                    if view.HasField("result") and view.seat < len(view.result.ranks):
                        rank = view.result.ranks[view.seat]
                    break
                if view.current_seat == view.seat and view.legal_actions:
                    with lock:
                        action = rng.choice(list(view.legal_actions))
                    with ready:
                        outgoing.append(execution_pb2.PlayRequest(
                            action=action, seen_sequence=view.sequence))
                        ready.notify()
        finally:
            with ready:
                outgoing.append(None)
                ready.notify()
            execution.close()
        with lock:
            ended.append(match)
            playing.pop(match, None)
        print("%s ended: this bot ranks %s" % (match, rank), flush=True)

    def start(challenge):
        if not challenge.match or challenge.state != ladder_pb2.Challenge.ACCEPTED:
            return
        for seat in challenge.seats:
            if seat.player == me and seat.seat_token:
                with lock:
                    if challenge.match in playing or challenge.match in ended:
                        return
                    thread = threading.Thread(
                        target=play, args=(challenge.execution_target, challenge.match,
                                           seat.seat_token), daemon=True)
                    playing[challenge.match] = thread
                thread.start()
                print("playing %s (%s)" % (challenge.match, challenge.name), flush=True)

    def done():
        with lock:
            return args.matches and len(ended) >= args.matches

    after = 0
    while not done():
        stream = watch(ladder_pb2.WatchEventsRequest(after_sequence=after), metadata=auth)
        try:
            for event in stream:
                challenge = event.challenge
                after = max(after, challenge.sequence)
                if (challenge.state == ladder_pb2.Challenge.OFFERED and
                        challenge.opponent == me):
                    with lock:
                        busy = len(playing) >= args.max_concurrent
                    if busy:
                        decline(ladder_pb2.DeclineChallengeRequest(name=challenge.name,
                                                                   reason="busy"), metadata=auth)
                        print("declined %s: busy" % challenge.name, flush=True)
                        continue
                    challenge = accept(ladder_pb2.AcceptChallengeRequest(name=challenge.name),
                                       metadata=auth)
                    print("accepted %s" % challenge.name, flush=True)
                if challenge.state in (ladder_pb2.Challenge.FINISHED,
                                       ladder_pb2.Challenge.CANCELLED):
                    with lock:
                        thread = playing.get(challenge.match)
                    if thread is not None:
                        thread.join(timeout=30)
                start(challenge)
                if done():
                    stream.cancel()
                    break
        except grpc.RpcError as error:
            if error.code() not in (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.CANCELLED):
                raise
            time.sleep(0.2)  # the service restarts: resume from `after`
    print("done: %d matches ended" % len(ended), flush=True)


if __name__ == "__main__":
    main()
