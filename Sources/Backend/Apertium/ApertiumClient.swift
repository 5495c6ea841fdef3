import Support
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP client for Apertium's APy server: `/listPairs` and `/translate`. It never retries; APy's own error
/// texts are mapped to a fixed vocabulary (`ApertiumError`), so nothing a server sends reaches a record.
package struct ApertiumClient: Sendable {
    /// One direction APy translates, in its own (ISO 639-3) codes: `spa` → `eng`.
    package struct Pair: Sendable, Hashable, Comparable, CustomStringConvertible {
        package var source: String
        package var target: String
        package init(source: String, target: String) {
            self.source = source
            self.target = target
        }
        /// `spa|eng`, APy's `langpair`.
        package var langpair: String { "\(source)|\(target)" }
        package var description: String { "\(source)-\(target)" }
        package static func < (a: Pair, b: Pair) -> Bool { (a.source, a.target) < (b.source, b.target) }
    }

    package let baseURL: URL
    /// Deadline for one whole request, in seconds.
    package var requestTimeout: Double

    package init(baseURL: URL, requestTimeout: Double = 30) {
        self.baseURL = baseURL
        self.requestTimeout = requestTimeout
    }

    /// The pairs APy serves (its modes directory's translation modes); variants such as `eng_US` are left out.
    package func listPairs(timeout: Double = 10) async throws -> [Pair] {
        struct Answer: Decodable {
            struct Entry: Decodable { var sourceLanguage: String; var targetLanguage: String }
            var responseData: [Entry]
        }
        let url = baseURL.appendingPathComponent("listPairs")
        let (status, _, body) = try await LlamaClient.fetch(URLRequest(url: url), deadline: timeout)
        guard status == 200 else { throw ApertiumError.from(status: status, body: body, url: url.absoluteString) }
        do {
            let entries = try JSONDecoder().decode(Answer.self, from: body).responseData
            return Set(entries.filter { !$0.sourceLanguage.contains("_") && !$0.targetLanguage.contains("_") }
                .map { Pair(source: $0.sourceLanguage, target: $0.targetLanguage) }).sorted()
        } catch {
            throw BackendError.malformedResponse(url: url.absoluteString, detail: "/listPairs: not APy's pair list")
        }
    }

    /// `text` translated along `pair`, unknown words left unmarked (APy's `markUnknown=no`), and the request's
    /// time on the client clock.
    package func translate(_ text: String, pair: Pair) async throws -> (text: String, ms: Double) {
        struct Answer: Decodable {
            struct Data: Decodable { var translatedText: String }
            var responseData: Data
        }
        let url = baseURL.appendingPathComponent("translate")
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("close", forHTTPHeaderField: "Connection")
        request.httpBody = Data(Self.form(["langpair": pair.langpair, "q": text, "markUnknown": "no"]).utf8)
        let start = ContinuousClock.now
        let (status, _, body) = try await LlamaClient.fetch(request, deadline: requestTimeout)
        let ms = (ContinuousClock.now - start).milliseconds
        guard status == 200 else { throw ApertiumError.from(status: status, body: body, url: url.absoluteString, pair: pair) }
        do {
            return (try JSONDecoder().decode(Answer.self, from: body).responseData.translatedText, ms)
        } catch {
            throw BackendError.malformedResponse(url: url.absoluteString, detail: "/translate: not APy's translation answer")
        }
    }

    /// `application/x-www-form-urlencoded` of `fields`, in key order.
    static func form(_ fields: [String: String]) -> String {
        var allowed = CharacterSet.alphanumerics.intersection(CharacterSet(charactersIn: Unicode.Scalar(0)..<Unicode.Scalar(128)))
        allowed.insert(charactersIn: "-._*")
        return fields.sorted { $0.key < $1.key }
            .map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
            .joined(separator: "&")
    }
}

/// How an APy request failed, in words LangBench chose: APy's own messages are matched, never copied.
package enum ApertiumError: Error, Equatable, Sendable, CustomStringConvertible {
    /// APy does not serve the pair (it was removed, or never installed): HTTP 400 "That pair is not installed".
    case pairNotInstalled(pair: String, url: String)
    /// APy answered an error status; `detail` is one of a fixed set of phrases.
    case httpStatus(code: Int, detail: String, url: String)

    package var description: String {
        switch self {
        case .pairNotInstalled(let pair, let url): "apertium pair \(pair) is not installed at \(url)"
        case .httpStatus(let code, let detail, let url): "HTTP \(code) from apertium at \(url)" + (detail.isEmpty ? "" : " (\(detail))")
        }
    }

    /// APy's `explanation` texts this client knows, and what it says for each.
    static let known: [(match: String, phrase: String)] = [
        ("That pair is not installed", "pair not installed"),
        ("That pair is invalid", "not a pair APy can read"),
        // A pipeline that timed out or closed its stream: APy marks it stuck and starts it again.
        ("internal error", "the pair's pipeline hung or closed; APy restarts it"),
        ("Missing argument", "a request argument was missing"),
    ]

    static func from(status: Int, body: Data, url: String, pair: ApertiumClient.Pair? = nil) -> Error {
        struct Answer: Decodable { var explanation: String?; var message: String? }
        let answer = try? JSONDecoder().decode(Answer.self, from: body)  // try?: an unreadable error body just has no phrase
        let said = [answer?.explanation, answer?.message].compactMap { $0 }.joined(separator: " ")
        let phrase = known.first { said.localizedCaseInsensitiveContains($0.match) }?.phrase ?? ""
        if phrase == "pair not installed", let pair { return ApertiumError.pairNotInstalled(pair: pair.description, url: url) }
        return ApertiumError.httpStatus(code: status, detail: phrase, url: url)
    }
}
