// Test helper: launches llama-server through LlamaServer, prints its pid, then waits to be killed.
//   llama-backend-test-helper <llama-server> <model> <run-dir> [--without-signal-handlers]
import Foundation
import Backend
import Support

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: llama-backend-test-helper <server> <model> <run-dir> [--without-signal-handlers]\n".utf8))
    exit(64)
}
if !arguments.contains("--without-signal-handlers") {
    ServerReaper.installSignalHandlers()
}
let configuration = ServerConfiguration(binary: arguments[1], model: arguments[2], contextSize: 512, threads: 1)
do {
    let server = try await LlamaServer.launch(configuration, runDirectory: URL(fileURLWithPath: arguments[3]))
    // Unbuffered, so the test reads the pid while this process keeps running.
    FileHandle.standardOutput.write(Data("\(server.processID ?? -1)\n".utf8))
    while true { try await Task.sleep(for: .seconds(3600)) }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
