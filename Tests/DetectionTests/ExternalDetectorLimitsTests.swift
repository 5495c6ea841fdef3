@testable import Detection
import Foundation
import Corpus
import TestSupport
import Testing

/// An exec detector that floods lines without an id is failed (bounded memory and
/// time) instead of being read forever; long answer lines split correctly however they arrive.
struct ExternalDetectorLimitsTests {
    @Test func aDetectorFloodingLinesWithoutAnIDFailsTheItem() async {
        // `yes` prints the same id-less line forever and never answers.
        let detector = ExternalDetector(command: #"yes '{"detector":"flood"}'"#, timeout: .seconds(30), maxConsecutiveFailures: 1)
        guard case .failed(let reason) = await detector.identify("hello", candidates: nil, hints: [:]) else {
            Issue.record("expected a failure"); return
        }
        #expect(reason.contains("more than \(ExternalDetector.maxMetadataLines) lines without an id"), "\(reason)")
        #expect(await detector.metadata.count <= ExternalDetector.maxMetadataLines)
        await detector.shutdown()
    }

    @Test func aMissingDetectorFailsEveryItemWithItsReason() async {
        let detector = ExternalDetector(command: "/nonexistent/detector", maxConsecutiveFailures: 2)
        for _ in 0..<3 {
            guard case .failed(let reason) = await detector.identify("hello", candidates: nil, hints: [:]) else {
                Issue.record("expected a failure"); return
            }
            #expect(reason.hasPrefix("exec:detector: the detector process exited with status 127"), "\(reason)")
        }
        await detector.shutdown()
    }

    /// A 2 MB metadata line then the answer, written in one go: split at the newlines, nothing lost.
    @Test func longLinesArriveWhole() async throws {
        let directory = try Fixture.temporaryDirectory()
        let script = directory.appendingPathComponent("long.py")
        try """
        import json, sys
        for line in sys.stdin:
            request = json.loads(line)
            sys.stdout.write(json.dumps({"pad": "x" * 2_000_000}) + "\\n" + json.dumps({"id": request["id"], "hypotheses": [{"lang": "ru", "p": 1}]}) + "\\n")
            sys.stdout.flush()
        """.write(to: script, atomically: true, encoding: .utf8)
        let detector = ExternalDetector(command: "python3 \(script.path)", timeout: .seconds(60))
        #expect(await detector.identify("привет", candidates: nil, hints: [:]).top?.lang.identifier == "ru")
        #expect(await detector.metadata.first?.count == 2_000_011)
        await detector.shutdown()
    }
}
