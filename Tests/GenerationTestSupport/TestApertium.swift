import Foundation
import Backend
import Support
import TestSupport
import Testing

/// Real APy servers for the translation tests: Debian's apertium-apy and pairs, installed by scripts/setup. A
/// missing APy fails the test — never a skip.
package enum TestApertium {
    /// An APy LangBench starts on a free loopback port, serving the modes in `modes`; the caller stops it.
    package static func launch(modes: String = ApertiumServer.defaultModes, pipelineTimeout: Int = 10) async throws -> ApertiumServer {
        ServerReaper.installSignalHandlers()
        return try await ApertiumServer.launch(modes: modes, runDirectory: try Fixture.temporaryDirectory("langbench-apy"),
                                               pipelineTimeout: pipelineTimeout)
    }

    /// A modes directory holding copies of the installed modes of `pairs` (`spa-eng`), so a pair left out is a
    /// removed pair, and a mode for each of `extra` written as given (a pipeline that hangs is a stuck pair).
    package static func modes(keeping pairs: [String], extra: [String: String] = [:]) throws -> String {
        let directory = try Fixture.temporaryDirectory("langbench-apy-modes")
        for pair in pairs {
            try FileManager.default.copyItem(atPath: "\(ApertiumServer.defaultModes)/\(pair).mode",
                                             toPath: directory.appendingPathComponent("\(pair).mode").path)
        }
        for (pair, pipeline) in extra {
            try Data((pipeline + "\n").utf8).write(to: directory.appendingPathComponent("\(pair).mode"))
        }
        return directory.path
    }
}
