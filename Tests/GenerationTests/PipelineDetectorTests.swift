@testable import Detection
import Foundation
@testable import Generation
import GenerationTestSupport
import Support
import Testing

/// A detector that cannot answer for the message stops the pipeline with its reason instead of
/// detecting `und`: real exec detectors (a command that hangs, one that does not exist); the backend is
/// never reached (`UnusedBackend` fails the test if it is).
struct PipelineDetectorTests {
    @Test(arguments: [("sleep 3600", "no answer within 1 s"),
                      ("/nonexistent/det", "the detector process exited with status 127")])
    func aDetectorThatCannotAnswerStopsDetection(command: String, reason: String) async throws {
        let detector = ExternalDetector(command: command, timeout: .seconds(1))
        let pipeline = try PipelineFixture.pipeline(backend: UnusedBackend(), detector: detector)
        await #expect {
            _ = try await pipeline.detect(PipelineFixture.item("en-1", "en", "How are you?"))
        } throws: { error in
            guard case .detectorFailed(let found) = error as? GenerationStopped.Cause else { return false }
            return found == "\(Redaction.label(ofCommand: "exec:\(command)")): \(reason)"
        }
        await detector.shutdown()
    }
}
