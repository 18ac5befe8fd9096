// Graceful shutdown on SIGTERM (Kubernetes, systemd) and SIGINT (Ctrl-C), without signal
// handlers: main blocks both signals before any thread exists, so every thread inherits the
// mask and the signals stay pending until main collects them with sigwait.
//
//   int main(int argc, char** argv) {
//     BlockTerminationSignals();      // first: before gRPC, spdlog or anything starts a thread
//     absl::ParseCommandLine(argc, argv);
//     ... start the servers ...
//     int signal = WaitForTerminationSignal();
//     server->Shutdown(config.shutdown_grace);
//   }
#ifndef BONEYARD_SERVICES_COMMON_SHUTDOWN_H_
#define BONEYARD_SERVICES_COMMON_SHUTDOWN_H_

namespace boneyard {

// Blocks SIGTERM and SIGINT in the calling thread and so in every thread it starts afterwards.
void BlockTerminationSignals();

// Waits until SIGTERM or SIGINT is sent to the process and returns its number. Needs
// BlockTerminationSignals to have been called before any thread started: a thread that does
// not block the signals would take the signal's default action (ending the process) instead.
int WaitForTerminationSignal();

// Sends SIGTERM to this process, as `kill <pid>` would: wakes WaitForTerminationSignal. For
// tests, under the same condition.
void RequestTermination();

}  // namespace boneyard

#endif  // BONEYARD_SERVICES_COMMON_SHUTDOWN_H_
