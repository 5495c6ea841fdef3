@testable import Detection
import Foundation
@testable import Corpus
import TestSupport
import Testing

/// The line protocol against a real child process that misbehaves on purpose.
struct ExternalDetectorTests {
    static let command = "python3 \(Fixture.path("detectors/script-detector.py"))"
    static let ru = LanguageCode(normalised: "ru"), uk = LanguageCode(normalised: "uk")

    @Test func answersAndHonoursCandidates() async {
        let detector = ExternalDetector(command: Self.command)
        #expect(await detector.identify("Привіт", candidates: [Self.uk, Self.ru], hints: [:]).top?.lang == Self.uk)
        #expect(await detector.identify("Hello", candidates: nil, hints: [:]).top?.lang.identifier == "en")
        #expect(await detector.metadata.first?.contains("script-detector") == true)
        await detector.shutdown()
    }

    @Test func deathIsAnItemErrorAndTheDetectorRestarts() async {
        let detector = ExternalDetector(command: Self.command)
        guard case .failed(let reason) = await detector.identify("@die", candidates: nil, hints: [:]) else {
            Issue.record("expected a failure"); return
        }
        // The kind of the end, never what the child wrote on its way out.
        #expect(reason == "exec:python3 script-detector.py: the detector process exited with status 3", "\(reason)")
        #expect(await detector.identify("Привет", candidates: nil, hints: [:]).top?.lang == Self.ru)
        await detector.shutdown()
    }

    /// Requests made at once (detection with `--jobs 2`) are answered one at a time, each its own answer: two
    /// requests waiting on the child's output at once used to replace each other's waiter and hang the run.
    @Test func concurrentRequestsAreEachAnsweredAndNeverHang() async {
        let detector = ExternalDetector(command: Self.command, timeout: .seconds(30))
        let answers = await withTaskGroup(of: (Int, String?).self) { group in
            for index in 0..<40 {
                group.addTask { (index, await detector.identify(index.isMultiple(of: 2) ? "Hello" : "Привет", candidates: nil, hints: [:]).top?.lang.identifier) }
            }
            var answers: [Int: String?] = [:]
            for await (index, lang) in group { answers[index] = lang }
            return answers
        }
        #expect(answers.count == 40)
        #expect(answers.allSatisfy { $0.value == ($0.key.isMultiple(of: 2) ? "en" : "ru") }, "\(answers)")
        await detector.shutdown()
    }

    @Test func hangIsATimeout() async {
        let detector = ExternalDetector(command: Self.command, timeout: .seconds(2))
        let start = ContinuousClock.now
        guard case .failed(let reason) = await detector.identify("@hang", candidates: nil, hints: [:]) else {
            Issue.record("expected a failure"); return
        }
        #expect(reason.hasSuffix("no answer within 2 s"))
        // The child sleeps an hour: ending in minutes proves the timeout cut it. A tighter bound would
        // time the machine (starting python3 under load took 12 s once), which is not what is promised.
        #expect(ContinuousClock.now - start < .seconds(300))
        #expect(await detector.identify("Hello", candidates: nil, hints: [:]).top?.lang.identifier == "en")
        await detector.shutdown()
    }

    /// Each failure is named by its kind; nothing the child wrote (its line, its error message, its id) is kept.
    @Test(arguments: [("@garbage", ": unreadable answer: a line that is not a JSON object of the protocol"),
                      ("@wrongid", ": unreadable answer: an answer for another id while waiting for 1"), ("@error", ": answered an error"),
                      ("@p1.5", ": unreadable answer: probability 1.5 for 'en' (outside 0...1)")])
    func garbageAndErrorsFailTheItem(text: String, expected: String) async {
        let detector = ExternalDetector(command: Self.command)
        guard case .failed(let reason) = await detector.identify(text, candidates: nil, hints: [:]) else {
            Issue.record("expected a failure"); return
        }
        #expect(reason == "exec:python3 script-detector.py\(expected)", "\(reason)")
        await detector.shutdown()
    }

    @Test func emptyHypothesesAreAnAbstention() async {
        let detector = ExternalDetector(command: Self.command)
        #expect(await detector.identify("@none", candidates: nil, hints: [:]) == .undetermined)
        await detector.shutdown()
    }

    @Test func givesUpAfterRepeatedFailures() async {
        let detector = ExternalDetector(command: "python3 -c 'import sys; sys.exit(1)'", maxConsecutiveFailures: 2)
        _ = await detector.identify("a", candidates: nil, hints: [:])
        _ = await detector.identify("b", candidates: nil, hints: [:])
        guard case .failed(let reason) = await detector.identify("c", candidates: nil, hints: [:]) else {
            Issue.record("expected a failure"); return
        }
        #expect(reason.contains("gave up after 2 failures in a row"))
    }
}
