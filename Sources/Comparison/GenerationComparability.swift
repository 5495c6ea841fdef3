import Generation
import Corpus
import Provenance

/// What must be equal for two generation runs' figures to be compared item by item. Each difference
/// is named; `compare` refuses (exit 65) unless `--allow-mismatch`.
enum GenerationComparability {
    static func mismatches(_ x: GenerationReport, _ y: GenerationReport) -> [String] {
        var out: [String] = []
        func differ<T: Equatable>(_ name: String, _ a: T, _ b: T, _ show: (T) -> String = { "\($0)" }) {
            if a != b { out.append("\(name) differs: \(show(a)) vs \(show(b))") }
        }
        if Set(x.provenance.corpora.map(\.sha256)) != Set(y.provenance.corpora.map(\.sha256)) {
            out.append("generation corpora differ (compared by SHA-256)")
        }
        let itemsA = Set(x.records.map(\.itemID)), itemsB = Set(y.records.map(\.itemID))
        if itemsA != itemsB {
            out.append("item set differs: \(itemsA.subtracting(itemsB).count) item(s) only in base, \(itemsB.subtracting(itemsA).count) only in current (a shard?)")
        }
        let (a, b) = (x.settings, y.settings)
        differ("generation route", a.route.rawValue, b.route.rawValue)
        differ("profile", a.profile, b.profile)
        differ("model", a.server["model_path"] ?? "?", b.server["model_path"] ?? "?")
        differ("seed", a.sampling.seed, b.sampling.seed)
        for (name, s, t) in [("sampling", a.sampling, b.sampling), ("translation sampling", a.translationSampling, b.translationSampling)] {
            differ("\(name) temperature", s.temperature, t.temperature)
            differ("\(name) top_k", s.topK, t.topK)
            differ("\(name) top_p", s.topP, t.topP)
            differ("\(name) min_p", s.minP, t.minP)
            differ("\(name) n_predict", s.nPredict, t.nPredict)
            differ("\(name) stop", s.stop, t.stop)
        }
        differ("translation sampling seed", a.translationSampling.seed, b.translationSampling.seed)
        for key in ["threads", "parallel_slots", "context_size", "swa_full"] {
            differ("server \(key)", a.server[key] ?? "?", b.server[key] ?? "?")
        }
        differ("concurrency", a.concurrency, b.concurrency)
        differ("repeats", a.repeats, b.repeats)
        differ("translation packs", a.packs, b.packs) { "\($0)" }
        differ("translator", Self.engine(a.translator), Self.engine(b.translator))
        differ("cache policy", a.cachePolicy.rawValue, b.cachePolicy.rawValue)
        // chrF against other references is another measurement: the translation-quality checks are left out (`sameReferences`).
        if a.references != b.references {
            out.append("translation references differ: \(a.references ?? "none") vs \(b.references ?? "none") (translation quality is not compared)")
        }
        differ("translation_lost_chrf", a.translationLostChrF.map { "\($0)" } ?? "none", b.translationLostChrF.map { "\($0)" } ?? "none")
        // Records pair up variant by variant: runs of different variants would share no pair and judge nothing.
        differ("variants", a.variants?.map(\.name) ?? [], b.variants?.map(\.name) ?? []) { $0.isEmpty ? "none" : $0.joined(separator: ", ") }
        for variant in a.variants ?? [] {
            guard let other = b.variants?.first(where: { $0.name == variant.name }), variant.translator != nil || other.translator != nil else { continue }
            differ("variant \(variant.name) translator", Self.engine(variant.translator ?? a.translator), Self.engine(other.translator ?? b.translator))
        }
        return out
    }

    /// An engine as the mismatch names it (`apertium 0.11.7 (pairs es-en, en-es)`); the model for reports before engines
    /// were recorded.
    /// Whether both runs scored their translations against the same references (file and SHA-256): chrF is compared only then.
    static func sameReferences(_ x: GenerationReport, _ y: GenerationReport) -> Bool {
        x.settings.references == y.settings.references
    }

    static func engine(_ engine: TranslationEngine?) -> String {
        guard let engine else { return "llm" }
        return engine.name + (engine.version.map { " \($0)" } ?? "") + (engine.pairs.map { " (pairs \($0.joined(separator: ", ")))" } ?? "")
    }
}
