import Corpus

/// A candidate language the detector cannot produce: the run would score every item of it wrong, so it
/// stops before the first item (exit 64), never dropping the candidate silently.
package struct CandidateError: Error, Sendable, Equatable, CustomStringConvertible {
    package var config: String
    package var detector: String
    package var unsupported: [LanguageCode]
    /// What the detector can produce, for the message.
    package var known: [LanguageCode]

    package init(config: String, detector: String, unsupported: [LanguageCode], known: [LanguageCode]) {
        self.config = config
        self.detector = detector
        self.unsupported = unsupported
        self.known = known
    }

    package var description: String {
        "config '\(config)': detector \(detector) cannot produce \(unsupported.map(\.identifier).joined(separator: ", ")); "
            + "remove it from the candidates or use one of \(known.map(\.identifier).joined(separator: ","))"
    }

    /// Throws when `detector` cannot produce one of the codes written in `spec` (a list, or the codes and
    /// `app:`/`device:` lists of an expression). Languages that `profile:supported` brings in are not checked:
    /// the profile lists what the *generator* supports (e.g. vi), which a detector may not know; those stay
    /// in the candidate list and the detector ignores them.
    package static func check(_ spec: CandidateSpec, detector: any LanguageIdentifying, config: String) throws {
        guard let candidates = try spec.resolve(supported: []), let known = detector.knownLanguages else { return }
        let unsupported = candidates.filter { code in !known.contains { $0.isEquivalent(to: code) } }
        if !unsupported.isEmpty {
            throw CandidateError(config: config, detector: detector.name, unsupported: unsupported, known: known)
        }
    }
}
