import Support
import Foundation
import Corpus

/// A detector in another process, spoken to in JSON lines over stdin/stdout:
/// request `{"id","text","candidates","hints"}`, answer `{"id","hypotheses":[{"lang","p"}]}` or
/// `{"id","error"}`. A line without `id` is metadata (e.g. `{"detector":"lingua","constraints":…}`)
/// and is kept for the report. A child that dies, hangs past the per-item timeout or answers garbage
/// fails that item with a reason naming the detector; it is restarted for the next item, and given up
/// on after `maxConsecutiveFailures` failures in a row (later items then fail at once). A best answer
/// outside the request's candidates fails the item too, and the child carries on.
package actor ExternalDetector: LanguageIdentifying {
    package nonisolated let name: String
    let command: String
    let timeout: Duration
    let maxConsecutiveFailures: Int

    private var child: LineProcess?
    private var consecutiveFailures = 0
    private var givenUp: String?
    private var nextID = 0
    /// Metadata lines the detector printed, in order.
    package private(set) var metadata: [String] = []

    /// `name` is how outputs name it (default `exec:<command>`; a spec's credentials redacted, `Redaction.label(ofCommand:)`).
    package init(command: String, name: String? = nil, timeout: Duration = .seconds(10), maxConsecutiveFailures: Int = 3) {
        self.name = name ?? Redaction.label(ofCommand: "exec:\(command)")
        self.command = command
        self.timeout = timeout
        self.maxConsecutiveFailures = maxConsecutiveFailures
    }

    package func identify(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]) async -> DetectionOutcome {
        // One request at a time: the actor is reentrant at each `await`, and two requests waiting on one child's
        // output (detection with `--jobs 2`) replaced each other's waiter and hung the run.
        if !turn.tryEnter() { await withCheckedContinuation { turn.wait($0) } }
        defer { turn.leave() }
        if let givenUp { return .failed(givenUp) }
        do {
            let outcome = try await ask(text, candidates: candidates, hints: hints)
            consecutiveFailures = 0
            if case .failed(let reason) = outcome { return .failed(Redaction.text(FailureText.without(text, in: reason))) }
            return outcome
        } catch {
            // A detector's words may quote its input or its own command line (credentials and all).
            let reason = Redaction.text(FailureText.without(text, in: "\(name): \(error)"))
            await stopChild()
            consecutiveFailures += 1
            if consecutiveFailures >= maxConsecutiveFailures {
                givenUp = "\(reason) (gave up after \(consecutiveFailures) failures in a row)"
            }
            return .failed(reason)
        }
    }

    package func shutdown() async {
        await stopChild()
    }

    private var turn = Turnstile()

    /// Lines without an id (metadata) accepted per answer and kept in total.
    static let maxMetadataLines = 100

    private struct Request: Encodable {
        var id: String
        var text: String
        var candidates: [String]?
        var hints: [String: Double]
    }

    private struct Response: Decodable {
        struct Entry: Decodable {
            var lang: String
            var p: Double
        }
        var id: String?
        var hypotheses: [Entry]?
        var error: String?
    }

    private func ask(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]) async throws -> DetectionOutcome {
        let child = try await startIfNeeded()
        nextID += 1
        let id = String(nextID)
        let request = Request(id: id, text: text, candidates: candidates?.map(\.identifier),
                              hints: Dictionary(uniqueKeysWithValues: hints.map { ($0.key.identifier, $0.value) }))
        do {
            try await child.send(request)
        } catch LineProcessError.died(let detail) {
            throw ExternalDetectorError.died(detail)
        }
        // One deadline for the whole answer: a detector printing lines without an id forever is timed out
        // like a silent one, and keeps at most `maxMetadataLines` of them.
        let deadline = ContinuousClock.now + timeout
        var metadataLines = 0
        while true {
            guard ContinuousClock.now < deadline else { throw ExternalDetectorError.timedOut(timeout.seconds) }
            let line: String?
            do {
                line = try await child.next(timeout: max(deadline - ContinuousClock.now, .zero))
            } catch let overflow as LineChannelOverflow {
                throw ExternalDetectorError.garbage(overflow.description)
            } catch {
                throw ExternalDetectorError.timedOut(timeout.seconds)
            }
            guard let line else { throw ExternalDetectorError.died(await child.exitDescription()) }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let response: Response
            do {
                response = try JSONDecoder().decode(Response.self, from: Data(line.utf8))
            } catch {
                throw ExternalDetectorError.garbage("a line that is not a JSON object of the protocol")
            }
            guard let responseID = response.id else {
                metadataLines += 1
                guard metadataLines <= Self.maxMetadataLines else {
                    throw ExternalDetectorError.garbage("more than \(Self.maxMetadataLines) lines without an id while waiting for id \(id)")
                }
                if metadata.count < Self.maxMetadataLines { metadata.append(line) }
                continue
            }
            guard responseID == id else { throw ExternalDetectorError.garbage("an answer for another id while waiting for \(id)") }
            // What the child said of its error stays with the child: it may quote the text or a secret.
            if response.error != nil { return .failed("\(name): answered an error") }
            guard let entries = response.hypotheses else { throw ExternalDetectorError.garbage("an answer with neither hypotheses nor error") }
            var hypotheses: [Hypothesis] = []
            for entry in entries {
                guard entry.p.isFinite, (0...1).contains(entry.p) else { throw ExternalDetectorError.garbage("probability \(entry.p) for '\(entry.lang)' (outside 0...1)") }
                let lang: LanguageCode
                do { lang = try LanguageCode(entry.lang) } catch { throw ExternalDetectorError.garbage("a hypothesis whose language is not a known code") }
                hypotheses.append(Hypothesis(lang: lang, probability: entry.p))
            }
            hypotheses.sort { $0.probability != $1.probability ? $0.probability > $1.probability : $0.lang < $1.lang }
            // A best answer the request ruled out is the detector ignoring its constraint, not a wrong guess
            // of the language: an item error like an unreadable answer (the child itself is fine).
            if let candidates, let best = hypotheses.first, !candidates.contains(where: { $0.isEquivalent(to: best.lang) }) {
                return .failed("\(name): \(ExternalDetectorError.outsideCandidates(best.lang.identifier, candidates.map(\.identifier)))")
            }
            return hypotheses.isEmpty ? .undetermined : .hypotheses(hypotheses)
        }
    }

    private func startIfNeeded() async throws -> LineProcess {
        if let child, child.isRunning { return child }
        await stopChild()  // one that ended between requests: what it started goes with it
        do {
            let started = try LineProcess.start(command)
            child = started
            return started
        } catch LineProcessError.cannotStart(let reason) {
            throw ExternalDetectorError.cannotStart(reason)
        }
    }

    private func stopChild() async {
        guard let child else { return }
        self.child = nil
        await child.stop()
    }
}

/// Why an external detector failed an item.
package enum ExternalDetectorError: Error, CustomStringConvertible {
    case cannotStart(String)
    case died(String)
    case timedOut(Double)
    case garbage(String)
    /// The best hypothesis is none of the request's candidates.
    case outsideCandidates(String, [String])

    package var description: String {
        switch self {
        case .cannotStart(let reason): "cannot start (\(reason))"
        case .died(let detail): "the detector process \(detail)"
        case .timedOut(let seconds): "no answer within \(String(format: "%g", seconds)) s"
        case .garbage(let detail): "unreadable answer: \(detail)"
        case .outsideCandidates(let lang, let candidates): "answered '\(lang)', which is not among the candidates \(candidates.joined(separator: ","))"
        }
    }
}
