import LangBench

/// Loads the built-in recognizer for `builtin` detection configs.
enum BuiltinDetectorLoader {
    static func load(modelPath: String?) throws -> any LanguageIdentifying {
        throw ConfigurationError.invalidValue(name: "detector", value: "builtin", reason: "the built-in recognizer is not part of this build yet; use exec:<command>")
    }
}
