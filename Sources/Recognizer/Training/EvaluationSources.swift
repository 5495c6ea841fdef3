/// The Debian packages the outside evaluation corpus is built from (`scripts/setup-outside-corpus`): never a source of
/// the recognizer's model, so that corpus measures text the model has not seen. `train` refuses a list naming one.
public enum EvaluationSources {
    /// Package names, or prefixes of a family of packages (one per language).
    public static let packages = ["unicode-cldr-core", "firefox-esr-l10n-", "libreoffice-l10n-"]

    /// The evaluation package a training source's description names, if any.
    public static func package(in description: String) -> String? {
        let words = description.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        return words.first { word in packages.contains { $0.hasSuffix("-") ? word.hasPrefix($0) : word == $0 } }
    }
}
