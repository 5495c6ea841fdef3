import Support
import Foundation
import Corpus
import Backend

/// Translation through Apertium's APy server. Its packs are read from the engine: a pair `/listPairs` lists is
/// `installed`; a pair a Debian package provides that is not installed is `supported` (downloadable); anything
/// else `unsupported` — Apple's three states, so the pivot's fallbacks are the same whichever engine runs.
package struct ApertiumTranslator: Translating {
    package var client: ApertiumClient
    package var engine: TranslationEngine
    /// The pairs the server listed when the run began.
    package var pairs: Set<ApertiumClient.Pair>

    package init(client: ApertiumClient, engine: TranslationEngine, pairs: Set<ApertiumClient.Pair>) {
        self.client = client
        self.engine = engine
        self.pairs = pairs
    }

    /// The translator of `server`, its pairs read now.
    package static func reading(_ server: ApertiumServer, name: String) async throws -> ApertiumTranslator {
        let client = server.client()
        var translator = ApertiumTranslator(client: client, engine: TranslationEngine(kind: "apertium", name: name, version: server.version),
                                            pairs: Set(try await client.listPairs()))
        // The installed pairs, as language codes, go into the run's environment: a changed pair set is named by `compare`.
        translator.engine.pairs = translator.packs(installedPackages: nil).pairs.filter { $0.value == .installed }.keys.sorted()
        return translator
    }

    package func translate(_ text: String, from source: LanguageCode, to target: LanguageCode) async throws -> TranslationResult {
        let pair = ApertiumClient.Pair(source: ApertiumCodes.code(source), target: ApertiumCodes.code(target))
        let (translated, ms) = try await client.translate(text, pair: pair)
        return TranslationResult(text: translated.trimmingCharacters(in: .whitespacesAndNewlines), ms: ms)
    }

    /// The packs as the engine has them, for every language Apertium has a code for, to and from English.
    package func packs(installedPackages: Set<String>? = ApertiumCodes.installedPackages()) -> LanguagePacks {
        var states: [String: LanguagePacks.State] = [:]
        for language in ApertiumCodes.languages where language != "en" {
            for (source, target) in [(language, "en"), ("en", language)] {
                let pair = ApertiumClient.Pair(source: ApertiumCodes.codes[source]!, target: ApertiumCodes.codes[target]!)
                states["\(source)-\(target)"] = pairs.contains(pair) ? .installed
                    : ApertiumCodes.package(for: pair, installed: installedPackages) != nil ? .supported : .unsupported
            }
        }
        return LanguagePacks(defaultState: .unsupported, pairs: states)
    }
}

/// Apertium's language codes (ISO 639-3, Serbo-Croatian as `hbs`) and Debian's pair packages.
package enum ApertiumCodes {
    /// ISO 639-1 (as LangBench's corpora write languages) to Apertium's code.
    static let codes: [String: String] = [
        "af": "afr", "an": "arg", "ast": "ast", "be": "bel", "bg": "bul", "br": "bre", "bs": "hbs", "ca": "cat", "da": "dan",
        "de": "deu", "en": "eng", "eo": "epo", "es": "spa", "eu": "eus", "fr": "fra", "gl": "glg", "hi": "hin", "hr": "hbs",
        "id": "ind", "is": "isl", "it": "ita", "ja": "jpn", "kk": "kaz", "mk": "mkd", "ms": "zlm", "nb": "nob", "nl": "nld",
        "nn": "nno", "no": "nor", "oc": "oci", "pl": "pol", "pt": "por", "ro": "ron", "ru": "rus", "sc": "srd", "sl": "slv",
        "sr": "hbs", "sv": "swe", "uk": "ukr", "ur": "urd",
    ]
    /// The ISO 639-1 languages above, sorted.
    static let languages = codes.keys.sorted()

    /// Two-letter spellings older Apertium packages use in their names (`apertium-eo-en`).
    static let shortNames: [String: String] = ["en": "eng", "es": "spa", "eo": "epo", "eu": "eus", "fr": "fra", "gl": "glg",
                                               "ca": "cat", "oc": "oci", "pt": "por", "ro": "ron", "br": "bre"]

    /// Debian 12's Apertium pair packages (`apt-cache search --names-only '^apertium-[a-z]{2,3}-[a-z]{2,3}$'`).
    static let debianPairPackages = [
        "apertium-afr-nld", "apertium-arg-cat", "apertium-bel-rus", "apertium-br-fr", "apertium-cat-ita", "apertium-cat-srd",
        "apertium-dan-nor", "apertium-en-gl", "apertium-eng-cat", "apertium-eng-spa", "apertium-eo-ca", "apertium-eo-en",
        "apertium-eo-es", "apertium-eo-fr", "apertium-es-gl", "apertium-es-ro", "apertium-eu-en", "apertium-eu-es",
        "apertium-fr-es", "apertium-fra-cat", "apertium-fra-frp", "apertium-hbs-eng", "apertium-hbs-mkd", "apertium-hbs-slv",
        "apertium-ind-zlm", "apertium-isl-eng", "apertium-isl-swe", "apertium-mkd-bul", "apertium-mkd-eng", "apertium-nno-nob",
        "apertium-oc-ca", "apertium-oc-es", "apertium-oci-fra", "apertium-pol-szl", "apertium-por-cat", "apertium-pt-gl",
        "apertium-rus-ukr", "apertium-spa-arg", "apertium-spa-ast", "apertium-spa-cat", "apertium-spa-ita", "apertium-srd-ita",
        "apertium-swe-dan", "apertium-swe-nor", "apertium-urd-hin",
    ]

    /// Apertium's code for `language`: its own when Apertium has one, else the language subtag as written.
    package static func code(_ language: LanguageCode) -> String { codes[language.language] ?? language.language }

    /// The Debian package that would bring `pair`, when one exists and is not installed (`installed` nil: unknown,
    /// as on a machine without dpkg, so every existing package counts as downloadable).
    static func package(for pair: ApertiumClient.Pair, installed: Set<String>?) -> String? {
        debianPairPackages.first { name in
            let parts = name.dropFirst("apertium-".count).split(separator: "-").map { shortNames[String($0)] ?? String($0) }
            return Set(parts) == [pair.source, pair.target] && !(installed?.contains(name) ?? false)
        }
    }

    /// The Apertium packages dpkg says are installed; nil where there is no dpkg.
    package static func installedPackages() -> Set<String>? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-query") else { return nil }
        let process = Process(), output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dpkg-query")
        process.arguments = ["-W", "-f", "${Package} ${db:Status-Status}\\n", "apertium-*"]
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Set(String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            return fields.count == 2 && fields[1] == "installed" ? String(fields[0]) : nil
        })
    }
}
