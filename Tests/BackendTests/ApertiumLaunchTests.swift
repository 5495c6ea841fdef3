import Foundation
@testable import Backend
import TestSupport
import Testing

/// What names APy is checked before anything runs: an empty name or a directory is refused with a message naming
/// Apertium (a directory once reached `apertium-apy --version` and crashed the run).
struct ApertiumLaunchTests {
    @Test(arguments: [("", "Apertium APy failed to start: LANGBENCH_APERTIUM_APY is empty; unset it or name APy's script"),
                      ("/tmp", "Apertium APy failed to start: apertium-apy not found (/tmp); run scripts/setup or apt-get install apertium-apy")])
    func anEmptyOrDirectoryAPyIsRefusedNamingApertium(binary: String, message: String) async throws {
        let directory = try Fixture.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        await #expect {
            _ = try await ApertiumServer.launch(environment: [ApertiumServer.binaryKey: binary], runDirectory: directory)
        } throws: { error in
            "\(error)" == message
        }
        #expect(ApertiumServer.locate("") == nil && ApertiumServer.locate("/usr/bin") == nil && ApertiumServer.locate("sh") != nil)
    }
}
