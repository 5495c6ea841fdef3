import Support
import Detection
import Foundation
import Generation
import Corpus
import Provenance

/// report.md and report.json of `langbench run`: the overview a person reads first, pointing to the
/// detection and generation reports beside it.
package struct SuiteReport: Sendable, Encodable {
    package var schemaVersion = 1
    package var runID: String
    package var shard: String?
    package var provenance: Provenance
    package var detection: [String: Double]
    package var generation: [String: Double]
    package var files: [String]
    /// Detection configs whose detector failed most items (detection.md says so; `run` exits 69).
    package var failedDetectorConfigs: [DetectionReport.FailedConfig]
    /// Whether the generation half's machine calibration agrees with itself (nil without one).
    package var calibrationConsistency: CalibrationConsistency?
    /// Whether the generation half's machine stayed steady (nil without generation), with the figures.
    package var machineSteady: Bool?
    package var machineSteadiness: MachineSteadiness?
    /// Per language, the runtime's route and both routes' figures (nil without generation).
    package var routeDecisions: [RouteDecision]?
    /// Per engine and language, the translate-in's chrF against the references (nil without any score).
    package var translationQuality: [TranslationQuality]?
    /// At most six facts, each one figure with its interval: what a reader asks first.
    package var headline: [String]

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version", runID = "run_id", shard, provenance, detection, generation, files, routeDecisions = "route_decisions", headline
        case translationQuality = "translation_quality"
        case calibrationConsistency = "calibration_consistency", machineSteady = "machine_steady", machineSteadiness = "machine_steadiness"
    }

    package static let markdownFile = "report.md"
    package static let jsonFile = "report.json"

    package init(runID: String, shard: Shard?, provenance: Provenance, detection: DetectionReport?, generation: GenerationReport?, files: [String]) {
        self.runID = runID
        self.shard = shard?.description
        pageShard = shard
        failedDetectorConfigs = detection?.failedConfigs ?? []
        calibrationConsistency = generation?.calibrationConsistency
        machineSteady = generation?.machineSteady
        machineSteadiness = generation?.machineSteadiness
        routeDecisions = generation?.routeDecisions
        translationQuality = generation.flatMap { $0.translationQuality.isEmpty ? nil : $0.translationQuality }
        let facts = RunPage.facts(detection: detection, generation: generation)
        headline = facts.map(\.text)
        headlineMarkdown = facts.map { fact in
            let file = fact.section == "detection" ? DetectionOutput.markdownFile : GenerationOutput.markdownFile
            return "- \(ReportText.markdown(fact.text)) ([\(file)](\(file)))"
        }
        steadinessWarning = generation?.steadinessWarning ?? ""
        self.provenance = provenance
        var d: [String: Double] = [:]
        for config in detection?.configs ?? [] {
            if let m = detection?.metrics(config: config.name) {
                d["\(config.name).accuracy"] = (m.accuracy * 10_000).rounded() / 10_000
                d["\(config.name).macro_f1"] = (m.macroF1 * 10_000).rounded() / 10_000
            }
        }
        for split in detection?.candidateSetSplits ?? [] {
            d["\(split.config).inside_accuracy"] = (split.insideAccuracy * 10_000).rounded() / 10_000
        }
        var g: [String: Double] = [:]
        for row in generation?.summary ?? [] where row.slice == "all" {
            if let l = row.latency { g["\(row.route.rawValue).p50_ms"] = l.p50.rounded(); g["\(row.route.rawValue).p95_ms"] = l.p95.rounded() }
            g["\(row.route.rawValue).fallback_rate"] = (row.fallbackRate * 10_000).rounded() / 10_000
            g["\(row.route.rawValue).served_rate"] = (row.servedRate * 10_000).rounded() / 10_000
        }
        if let control = generation?.control { g["control.en_pivot_direct_ratio"] = (control.ratio.medianRatio * 1000).rounded() / 1000 }
        self.detection = d
        self.generation = g
        self.files = files
        self.detectionMarkdown = Self.detectionSection(detection)
        self.generationMarkdown = Self.generationSection(generation)
        detectionReport = detection
        generationReport = generation
    }

    private var steadinessWarning: String
    private var headlineMarkdown: [String]
    private var detectionMarkdown: String
    private var generationMarkdown: String
    private var detectionReport: DetectionReport?
    private var generationReport: GenerationReport?
    /// The shard the run measured: its page reads only the shard's own texts.
    private var pageShard: Shard?

    package var markdown: String {
        var out = "# LangBench run \(ReportText.code(runID))" + (shard.map { " (shard \(ReportText.markdown($0)))" } ?? "") + "\n\n" + steadinessWarning
        if !headlineMarkdown.isEmpty { out += "## At a glance\n\n" + headlineMarkdown.joined(separator: "\n") + "\n\n" }
        out += detectionMarkdown + generationMarkdown + Self.detailLinks(detection: detectionReport != nil, generation: generationReport != nil)
        out += "### Files\n\n" + files.sorted().map { "- [\(ReportText.code($0))](\(ReportText.relativeLink($0)))" }.joined(separator: "\n") + "\n\n"
        return out + ProvenanceMarkdown.footer(provenance)
    }

    /// report.md is the summary: the headline, the route decision table and where the rest is. The detail is written
    /// once, in detection.md and generation.md (and on the page).
    static func detectionSection(_ report: DetectionReport?) -> String {
        guard let report else { return "" }
        return report.missingCorporaMarkdown + report.failedConfigs.map { "**⚠️ \($0.markdownSentence).**\n\n" }.joined()
    }

    static func generationSection(_ report: GenerationReport?) -> String {
        guard let report else { return "" }
        return "## " + ReportText.markdown(report.routeDecisionTable.title) + "\n\n" + MarkdownWriter.render(report.routeDecisionTable, heading: false) + "\n"
            + RouteDecision.legend(pivotVia: !report.pivotOnlyVariants.isEmpty) + "\n\n"
    }

    /// Where the detail is, one line per file that holds it.
    static func detailLinks(detection: Bool, generation: Bool) -> String {
        var lines = ["- [report.html](\(RunPage.file)): the page — who is served, what it costs, where detection loses people, every item"]
        if detection {
            lines.append("- [detection.md](\(DetectionOutput.markdownFile)): configs, inside and outside the candidate set, paired comparisons, "
                         + "per language, confusion, length, tag, throughput")
        }
        if generation {
            lines.append("- [generation.md](\(GenerationOutput.markdownFile)): variants, the English control, latency and its stages, paired ratios, "
                         + "served per language and judge, translation quality, the served funnel, fallbacks")
        }
        return "## Details\n\n" + lines.joined(separator: "\n") + "\n\n"
    }

    package func write(to directory: URL) throws {
        try AtomicFile.write(markdown, to: directory.appendingPathComponent(Self.markdownFile))
        try AtomicFile.write(try JSONOutput.encode(self), to: directory.appendingPathComponent(Self.jsonFile))
        try RunPage.write(detection: detectionReport, generation: generationReport, to: directory, runID: runID, shard: pageShard)
    }
}
