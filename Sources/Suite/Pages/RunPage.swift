import Support
import Detection
import Foundation
import Generation
import Corpus
import Provenance

/// report.html of a run directory (run, detect, generate, merge), in one file and in the order a person asks: the
/// headline, who is served in their own language, what it costs, where detection loses people (each with its chart
/// first, the same tables as the Markdown reports second), the per-item lists folded, and the provenance.
package enum RunPage {
    package static let file = GenerationOutput.pageFile

    /// Builds the page for the reports of `directory` (either may be nil) and writes it there. Per-item
    /// results, replies and corpus texts are read from the directory and the corpora the reports name.
    package static func write(detection: DetectionReport?, generation: GenerationReport?, to directory: URL, runID: String? = nil,
                              shard: Shard? = nil) throws {
        let sources = (detection?.provenance.corpora ?? []) + (generation?.provenance.corpora ?? [])
        let texts = ItemTexts.load(sources.reduce(into: [CorpusSource]()) { all, source in if !all.contains(source) { all.append(source) } }, shard: shard)
        let crisis = crisisItems(texts: texts, generation: generation)
        let differing = try detection.map { try DetectionItems.differing($0, in: directory, texts: texts, crisis: crisis) }
        let html = render(detection: detection, differing: differing, generation: generation,
                          replies: generation == nil ? [:] : try GenerationItems.replies(in: directory), texts: texts, crisis: crisis,
                          runID: runID ?? directory.lastPathComponent)
        try AtomicFile.write(html, to: directory.appendingPathComponent(file))
    }

    /// The page for reports, their per-item detection results and replies (keyed by `GenerationRecord.key`)
    /// and the corpus texts.
    static func render(detection: DetectionReport?, results: [DetectionResult], generation: GenerationReport?, replies: [String: String],
                       texts: ItemTexts, runID: String) -> String {
        let crisis = crisisItems(texts: texts, generation: generation)
        let differing = detection.map {
            DifferingItems.of(results, configs: $0.primaryConfigs.map(\.name), candidates: $0.primaryConfigs.map(\.resolvedCandidates), texts: texts, crisis: crisis)
        }
        return render(detection: detection, differing: differing, generation: generation, replies: replies, texts: texts, crisis: crisis, runID: runID)
    }

    /// Items never shown: crisis-flagged in the corpus or given the crisis reply.
    static func crisisItems(texts: ItemTexts, generation: GenerationReport?) -> Set<String> {
        texts.crisis.union(generation?.records.filter { $0.fallbackReason == .crisisProtocol }.map(\.itemID) ?? [])
    }

    private static func render(detection: DetectionReport?, differing: DifferingItems?, generation: GenerationReport?, replies: [String: String],
                               texts: ItemTexts, crisis: Set<String>, runID: String) -> String {
        var page = HTMLPage(title: "LangBench run \(runID)")
        // The warnings report.md opens with, first here too: a loaded machine, a corpus not built, a config that failed.
        for warning in warnings(detection: detection, generation: generation) { page.paragraph("⚠ " + warning, strong: true) }
        headline(&page, detection: detection, generation: generation)
        if let generation {
            GenerationItems.served(&page, report: generation, texts: texts)
            GenerationItems.cost(&page, report: generation)
        }
        if let detection, let differing { DetectionItems.section(&page, report: detection, differing: differing) }
        if let generation { GenerationItems.itemList(&page, report: generation, replies: replies, texts: texts, crisis: crisis) }
        provenance(&page, detection: detection, generation: generation, texts: texts)
        return page.html
    }

    /// The warnings that head report.md, as plain sentences: the machine unsteady, a corpus set-up did not build, a config
    /// whose detector failed most items.
    static func warnings(detection: DetectionReport?, generation: GenerationReport?) -> [String] {
        [generation?.machineSteadiness?.sentence?.replacingOccurrences(of: "`", with: "")].compactMap { $0 }
            + (detection?.provenance.missingCorpora ?? []).map(MissingCorpus.sentence)
            + (detection?.failedConfigs ?? []).map(\.sentence)
    }

    /// What a reader should grasp on the first screen: the facts of `facts`, each linking to the part of the page that has the rest.
    static func headline(_ page: inout HTMLPage, detection: DetectionReport?, generation: GenerationReport?) {
        let parts = ["served": "who is served", "cost": "what it costs", "detection": "where detection loses people",
                     "generation-route-decision": "route decision"]
        page.headline("Headline", linked: facts(detection: detection, generation: generation).map { ($0.text, ($0.anchor, parts[$0.anchor] ?? $0.anchor)) })
    }

    /// At most six facts, each one figure with its interval and the section that has the rest: detection as the app
    /// ships it, who each route serves, what the pivot costs, where the route the runtime does not pick does better,
    /// and whether the in-run control held. report.md and the page open with them: `section` is report.md's section,
    /// `anchor` the page's.
    package static func facts(detection: DetectionReport?, generation: GenerationReport?) -> [(text: String, section: String, anchor: String)] {
        var facts: [(text: String, section: String, anchor: String)] = []
        let percent = { (fraction: Double, ci: Statistics.Interval) in String(format: "%.1f%% (%@%%)", fraction * 100, DetectionReport.percentInterval(ci)) }
        let shipped = generation?.settings.detectionName ?? DetectionConfig.seedArchitecture().name
        if let detection, let config = detection.configs.first(where: { $0.name == shipped }) ?? detection.configs.first,
           let metrics = detection.metrics(config: config.name) {
            var fact = "Detection as shipped (\(config.name)): \(metrics.correct) of \(metrics.n) messages right, " + percent(metrics.accuracy, metrics.ci95)
            if let split = detection.candidateSetSplits.first(where: { $0.config == config.name }), split.outside > 0 {
                fact += "; " + percent(split.insideAccuracy, split.insideCI) + " of the \(split.inside) inside its candidate set"
            }
            facts.append((fact, "detection", "detection"))
        }
        guard let generation else { return facts }
        for row in generation.served where row.lang == "all" {
            facts.append(("Served in their own language, \(row.route.rawValue) route: \(row.served) of \(row.n), " + percent(row.rate, row.ci), "generation", "served"))
        }
        if let ratio = generation.ratio(.total) {
            facts.append((String(format: "End to end the pivot takes ×%.2f", ratio.medianRatio) + (ratio.ci.map { String(format: " (%.2f–%.2f)", $0.low, $0.high) } ?? "")
                          + " the direct route's time, median over \(ratio.pairs) people", "generation", "cost"))
        }
        let flagged = generation.routeDecisions.filter { $0.flag != nil }
        if !flagged.isEmpty {
            facts.append(("The route the runtime does not pick does better for \(flagged.count) of \(generation.routeDecisions.count) languages — "
                          + flagged.map { "\($0.lang): \($0.flag!)" }.joined(separator: "; "), "generation", "generation-route-decision"))
        }
        if let control = generation.control { facts.append(("English A/A control (the same prompt on both routes): \(control.verdict.rawValue)", "generation", "cost")) }
        return Array(facts.prefix(6))
    }

    static func provenance(_ page: inout HTMLPage, detection: DetectionReport?, generation: GenerationReport?, texts: ItemTexts) {
        guard let p = detection?.provenance ?? generation?.provenance else { return }
        page.heading("Provenance", id: "provenance")
        var lines = ["langbench \(p.toolVersion)" + (p.gitCommit.map { ", commit \($0)" } ?? ""),
                     "Machine: \(p.host.cpu), \(p.host.cores) cores, \(p.host.memoryGiB) GiB, \(p.host.os)",
                     "Started \(p.startedAt)" + (p.finishedAt.map { ", finished \($0)" } ?? ""),
                     "Command: " + p.command.joined(separator: " ")]
        lines += p.corpora.map { "Corpus \($0.path): \($0.format.rawValue), \($0.items) items, sha256 \($0.sha256)" }
        if let generation {
            lines.append("Profile \(generation.settings.profile), model \(generation.settings.server["model_path"] ?? "unknown")")
            for variant in generation.settings.variants ?? [] {
                lines.append("Variant \(variant.name): model \(variant.model), profile fingerprint \(variant.fingerprint)")
            }
            lines.append("Timing design: " + generation.timingDesign)
            lines.append(generation.control?.sentence ?? "No English control in this run.")
        }
        if let calibration = p.calibration {
            lines.append("Machine calibration: \(calibration.summary). \(CalibrationConsistency(calibration).sentence)")
        }
        if let restarts = p.serverRestarts { lines.append("llama-server was restarted \(restarts) time(s); the replies it broke were redone.") }
        if let problem = texts.problem { lines.append("Item texts not shown: \(problem)") }
        page.list(lines)
    }
}
