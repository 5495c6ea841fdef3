/// Which translation packs are on the simulated device, with Apple's three states. A pivot needs
/// both legs (`<lang>-en` and `en-<lang>`) installed.
public struct LanguagePacks: Sendable, Hashable, Codable {
    /// Apple's `LanguageAvailability.Status`.
    public enum State: String, Sendable, Hashable, Codable {
        /// Present on the device: translation works.
        case installed
        /// Downloadable but not present: translation fails with `translation-pack-missing`.
        case supported
        /// No such pack: translation fails with `translation-unsupported`.
        case unsupported
    }

    /// State of pairs not listed in `pairs`.
    public var defaultState: State
    /// Per pair, keyed `<source>-<target>` (e.g. `kk-en`).
    public var pairs: [String: State]

    public init(defaultState: State = .installed, pairs: [String: State] = [:]) {
        self.defaultState = defaultState
        self.pairs = pairs
    }

    public func state(from source: LanguageCode, to target: LanguageCode) -> State {
        pairs["\(source.identifier)-\(target.identifier)"] ?? pairs["\(source.language)-\(target.language)"] ?? defaultState
    }

    enum CodingKeys: String, CodingKey {
        case defaultState = "default", pairs
    }

    public init(from decoder: Decoder) throws {
        try StrictJSON.rejectUnknownKeys(in: decoder, allowed: ["default", "pairs"])
        let container = try decoder.container(keyedBy: CodingKeys.self)
        defaultState = try container.decodeIfPresent(State.self, forKey: .defaultState) ?? .installed
        pairs = try container.decodeIfPresent([String: State].self, forKey: .pairs) ?? [:]
    }

    /// The embedded default: every pack installed except Kazakh, which is downloadable but absent, so
    /// a default run shows what happens to users who never downloaded their pack.
    public static let deviceDefault = LanguagePacks(defaultState: .installed, pairs: ["kk-en": .supported, "en-kk": .supported])
}
