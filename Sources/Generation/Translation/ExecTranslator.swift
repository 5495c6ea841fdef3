import Support
import Detection
import Foundation
import Corpus

/// A translator in another process, spoken to in JSON lines over stdin/stdout like an `exec:` detector:
/// request `{"id","text","from","to"}`, answer `{"id","text"}`, or `{"id","error","pack"}` where `pack` is
/// `missing` (downloadable, not installed) or `unsupported` when the engine says so. A line without `id` is
/// metadata; a `version` in one is kept (`reportedVersion`). A child that dies, hangs past the timeout or answers
/// garbage fails that translation (the pivot falls back, naming why) and is restarted for the next one.
package actor ExecTranslator: Translating {
    package nonisolated let engine: TranslationEngine
    let command: String
    let timeout: Duration
    private var child: LineProcess?
    private var nextID = 0
    /// The engine's version, once it said one.
    package private(set) var reportedVersion: String?

    package init(command: String, timeout: Duration = .seconds(30)) {
        self.command = command
        self.timeout = timeout
        engine = TranslationEngine(kind: "exec", name: Redaction.label(ofCommand: "exec:\(command)"))
    }

    private struct Request: Encodable {
        var id: String
        var text: String
        var from: String
        var to: String
    }

    private struct Response: Decodable {
        var id: String?
        var text: String?
        var error: String?
        var pack: String?
        var version: String?
    }

    package func translate(_ text: String, from source: LanguageCode, to target: LanguageCode) async throws -> TranslationResult {
        // One request at a time (the actor is reentrant at each `await`; see `ExternalDetector.identify`).
        if !turn.tryEnter() { await withCheckedContinuation { turn.wait($0) } }
        defer { turn.leave() }
        let start = ContinuousClock.now
        do {
            let translated = try await ask(text, from: source, to: target)
            return TranslationResult(text: translated.trimmingCharacters(in: .whitespacesAndNewlines), ms: (ContinuousClock.now - start).milliseconds)
        } catch let error as ExecTranslatorError {
            if case .engine = error {} else { await stopChild() }
            // The engine's words may quote the text it was given, or its own command line.
            throw error.without(text)
        }
    }

    package func shutdown() async { await stopChild() }

    private var turn = Turnstile()

    private func ask(_ text: String, from source: LanguageCode, to target: LanguageCode) async throws -> String {
        let child: LineProcess
        if let running = self.child, running.isRunning { child = running } else {
            await stopChild()  // one that ended between requests: what it started goes with it
            do { child = try LineProcess.start(command) } catch { throw ExecTranslatorError.cannotStart("\(error)") }
            self.child = child
        }
        nextID += 1
        let id = String(nextID)
        do {
            try await child.send(Request(id: id, text: text, from: source.identifier, to: target.identifier))
        } catch LineProcessError.died(let detail) {
            throw ExecTranslatorError.died(detail)
        }
        // One deadline for the whole answer, lines without an id included: a child printing them forever times out.
        let deadline = ContinuousClock.now + timeout
        var linesWithoutID = 0
        while true {
            guard ContinuousClock.now < deadline else { throw ExecTranslatorError.timedOut(timeout.seconds) }
            let line: String?
            do { line = try await child.next(timeout: max(deadline - ContinuousClock.now, .zero)) } catch let overflow as LineChannelOverflow {
                throw ExecTranslatorError.garbage(overflow.description)
            } catch {
                throw ExecTranslatorError.timedOut(timeout.seconds)
            }
            guard let line else { throw ExecTranslatorError.died(await child.exitDescription()) }
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            guard let response = try? JSONDecoder().decode(Response.self, from: Data(line.utf8)) else {  // try?: any unreadable line is garbage
                throw ExecTranslatorError.garbage("a line that is not a JSON object of the protocol")
            }
            guard let responseID = response.id else {
                linesWithoutID += 1
                guard linesWithoutID <= Self.maxLinesWithoutID else {
                    throw ExecTranslatorError.garbage("more than \(Self.maxLinesWithoutID) lines without an id while waiting for id \(id)")
                }
                if let version = response.version { reportedVersion = Self.versionLabel(version) }
                continue
            }
            guard responseID == id else { throw ExecTranslatorError.garbage("an answer for another id while waiting for \(id)") }
            if response.error != nil {
                let pack: ExecTranslatorError.Pack = switch response.pack { case "missing": .missing; case "unsupported": .unsupported; default: .none }
                // What the engine said of its error stays with the engine: it may quote the text or a secret.
                throw ExecTranslatorError.engine(pack: pack)
            }
            guard let text = response.text else { throw ExecTranslatorError.garbage("an answer with neither text nor error") }
            return text
        }
    }

    /// Lines without an id (a version line) accepted per answer.
    static let maxLinesWithoutID = 100

    /// A reported version as a record keeps it: letters, digits and `.+-_` only, at most 40 of them.
    static func versionLabel(_ version: String) -> String {
        String(Redaction.text(version).filter { $0.isASCII && ($0.isLetter || $0.isNumber || ".+-_".contains($0)) }.prefix(40))
    }

    private func stopChild() async {
        guard let child else { return }
        self.child = nil
        await child.stop()
    }
}

/// Why an `exec:` translator failed a translation.
package enum ExecTranslatorError: Error, CustomStringConvertible, Equatable {
    /// What the engine said of the pair.
    package enum Pack: Sendable, Equatable { case none, missing, unsupported }

    case cannotStart(String)
    case died(String)
    case timedOut(Double)
    case garbage(String)
    /// The engine answered an error for this request (what it said is not kept).
    case engine(pack: Pack)

    package var description: String {
        switch self {
        case .cannotStart(let reason): "the translator cannot start (\(reason))"
        case .died(let detail): "the translator process \(detail)"
        case .timedOut(let seconds): "the translator gave no answer within \(String(format: "%g", seconds)) s"
        case .garbage(let detail): "unreadable answer from the translator: \(detail)"
        case .engine(let pack): pack == .none ? "the translator answered an error" : "the translator answered an error (pack \(pack))"
        }
    }

    /// This error with `text` (the request's words) and credentials taken out of what it quotes.
    func without(_ text: String) -> ExecTranslatorError {
        let clean = { (detail: String) in Redaction.text(FailureText.without(text, in: detail)) }
        return switch self {
        case .cannotStart(let reason): .cannotStart(clean(reason))
        case .died(let detail): .died(clean(detail))
        case .timedOut: self
        case .garbage(let detail): .garbage(clean(detail))
        case .engine: self
        }
    }
}
