import Support
import Corpus

/// Which translation packs are on the simulated device, with Apple's three states. A pivot needs
/// both legs (`<lang>-en` and `en-<lang>`) installed.
package struct LanguagePacks: Sendable, Hashable, Codable {
    /// Apple's `LanguageAvailability.Status`.
    package enum State: String, Sendable, Hashable, Codable {
        /// Present on the device: translation works.
        case installed
        /// Downloadable but not present: translation fails with `translation-pack-missing`.
        case supported
        /// No such pack: translation fails with `translation-unsupported`.
        case unsupported
    }

    /// State of pairs not listed in `pairs`.
    package var defaultState: State
    /// Per pair, keyed `<source>-<target>` (e.g. `kk-en`).
    package var pairs: [String: State]

    package init(defaultState: State = .installed, pairs: [String: State] = [:]) {
        self.defaultState = defaultState
        self.pairs = pairs
    }

    package func state(from source: LanguageCode, to target: LanguageCode) -> State {
        pairs["\(source.identifier)-\(target.identifier)"] ?? pairs["\(source.language)-\(target.language)"] ?? defaultState
    }

    enum CodingKeys: String, CodingKey {
        case defaultState = "default", pairs
    }

    package init(from decoder: Decoder) throws {
        try StrictJSON.rejectUnknownKeys(in: decoder, allowed: ["default", "pairs"])
        let container = try decoder.container(keyedBy: CodingKeys.self)
        defaultState = try container.decodeIfPresent(State.self, forKey: .defaultState) ?? .installed
        pairs = try container.decodeIfPresent([String: State].self, forKey: .pairs) ?? [:]
        for key in pairs.keys.sorted() {
            let spellings = Self.spellings(key)
            try StrictJSON.check(spellings.contains(key), "pairs", in: decoder, spellings.first.map { "pack key '\(key)' never matches: write '\($0)'" }
                ?? "pack key '\(key)' is not <source>-<target> (two language codes joined by a hyphen, e.g. kk-en)")
        }
    }

    /// The keys `state(from:to:)` looks up for the pair `key` names (`kk-en` for `KK-EN`); empty when
    /// `key` is not two language codes joined by a hyphen (`kk_en`). Any other key would never match,
    /// so its pack would be silently ignored.
    static func spellings(_ key: String) -> [String] {
        let parts = key.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        for split in 1..<max(parts.count, 1) {
            // try?: a split that is not two codes is just not this split.
            guard let a = try? LanguageCode(parts[..<split].joined(separator: "-")),
                  let b = try? LanguageCode(parts[split...].joined(separator: "-")) else { continue }
            return ["\(a.identifier)-\(b.identifier)", "\(a.language)-\(b.language)"]
        }
        return []
    }

    /// The embedded default: every pack installed except Kazakh, which is downloadable but absent, so
    /// a default run shows what happens to users who never downloaded their pack.
    package static let deviceDefault = LanguagePacks(defaultState: .installed, pairs: ["kk-en": .supported, "en-kk": .supported])
}
