import Checks
import Provenance

/// One variant's figures in a run with variants, and how it did against the reference (the first
/// variant) on the same items: paired checks and the records whose outcome flipped.
package struct VariantSection: Sendable, Hashable, Codable {
    package var name: String
    package var description: String
    /// Route rows (`all` and per language), as the run's own summary.
    package var summary: [GenerationReport.SummaryRow]
    package var fallbacks: [GenerationReport.FallbackRow]
    package var served: [GenerationReport.ServedRow]
    /// Paired checks against the reference on the same item × route × repeat (none for the reference):
    /// McNemar on served-in-own-language (per route, and per route and language) and each fallback reason,
    /// paired bootstrap on latency ratios.
    package var versusReference: [MetricCheck]
    /// Per route: records served in the person's own language here and not by the reference, and the reverse.
    package var gained: [String: Int]
    package var lost: [String: Int]

    enum CodingKeys: String, CodingKey {
        case name, description, summary, fallbacks, served, versusReference = "versus_reference", gained, lost
    }

    /// The sections of a run's variants, from its records (each labelled with its variant), without their checks
    /// against the reference: the job that made the run judges those (`GenerationReport.judgingVariants`, Comparison).
    static func all(_ variants: [GenerationReport.Settings.Variant], records: [GenerationRecord], settings: GenerationReport.Settings,
                    provenance: Provenance) -> [VariantSection] {
        let reports = self.reports(variants, records: records, settings: settings, provenance: provenance)
        guard let reference = reports.first else { return [] }
        return zip(variants, reports).map { variant, report in
            let flips = VariantFlips(reference: reference.records, variant: report.records)
            return VariantSection(name: variant.name, description: variant.description, summary: report.summary, fallbacks: report.fallbacks,
                                  served: report.served, versusReference: [], gained: flips.gained, lost: flips.lost)
        }
    }

    /// Each variant's records as a run of their own (in `variants`' order, the reference first).
    package static func reports(_ variants: [GenerationReport.Settings.Variant], records: [GenerationRecord], settings: GenerationReport.Settings,
                                provenance: Provenance) -> [GenerationReport] {
        var single = settings
        single.variants = nil
        return variants.map { variant in
            GenerationReport(records: records.filter { $0.variant == variant.name }.map { var r = $0; r.variant = nil; return r },
                             settings: single, warmupRuns: 0, provenance: provenance)
        }
    }
}

/// Records whose served-in-own-language outcome differs between the reference and a variant, counted by route.
struct VariantFlips {
    var gained: [String: Int] = [:]
    var lost: [String: Int] = [:]

    init(reference: [GenerationRecord], variant: [GenerationRecord]) {
        let before = Dictionary(reference.map { ($0.key, $0.servedInOwnLanguage == true) }, uniquingKeysWith: { a, _ in a })
        for record in variant where record.fallbackReason != .crisisProtocol {
            guard let was = before[record.key] else { continue }
            let now = record.servedInOwnLanguage == true
            if now && !was { gained[record.route.rawValue, default: 0] += 1 }
            if was && !now { lost[record.route.rawValue, default: 0] += 1 }
        }
    }
}
