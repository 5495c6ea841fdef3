import BenchSupport
import Detection
import Foundation
import Generation
import Items
import RunProvenance

/// report.html of a run directory (run, detect, generate, merge): the headline, the same tables and
/// charts as the Markdown reports, the per-item drill-downs and the provenance, in one file.
public enum RunPage {
    public static let file = GenerationOutput.pageFile

    /// Builds the page for the reports of `directory` (either may be nil) and writes it there. Per-item
    /// results, replies and corpus texts are read from the directory and the corpora the reports name.
    public static func write(detection: DetectionReport?, generation: GenerationReport?, to directory: URL, runID: String? = nil) throws {
        let sources = (detection?.provenance.corpora ?? []) + (generation?.provenance.corpora ?? [])
        let texts = ItemTexts.load(sources.reduce(into: [CorpusSource]()) { all, source in if !all.contains(source) { all.append(source) } })
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
            DifferingItems.of(results, configs: $0.configs.map(\.name), candidates: $0.configs.map(\.resolvedCandidates), texts: texts, crisis: crisis)
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
        headline(&page, detection: detection, generation: generation)
        if let detection, let differing { DetectionItems.section(&page, report: detection, differing: differing) }
        if let generation { GenerationItems.section(&page, report: generation, replies: replies, texts: texts, crisis: crisis) }
        provenance(&page, detection: detection, generation: generation, texts: texts)
        return page.html
    }

    /// What a reader should grasp on the first screen.
    static func headline(_ page: inout HTMLPage, detection: DetectionReport?, generation: GenerationReport?) {
        var lines: [String] = []
        for config in detection?.configs ?? [] {
            guard let m = detection?.metrics(config: config.name) else { continue }
            lines.append("Detection \(config.name): accuracy \(ReportCell.percent(m.accuracy).display)% "
                         + "(95% CI \(DetectionReport.percentInterval(m.ci95))), macro-F1 \(ReportCell.number(m.macroF1, digits: 3).display), \(m.n) items.")
            if let split = detection?.candidateSetSplits.first(where: { $0.config == config.name }) {
                let top = split.absorbed.first.map { ", the most \($0.lang) called \($0.predicted) (\($0.count))" } ?? ""
                let outside = split.outside == 0 ? "no item of another language"
                    : "\(split.outside) items of other languages, wrong by construction\(top)"
                lines.append("Detection \(config.name) inside its \(split.candidates) candidates: \(ReportCell.percent(split.insideAccuracy).display)% "
                             + "(95% CI \(DetectionReport.percentInterval(split.insideCI))) of \(split.inside) items; \(outside).")
            }
        }
        if let generation {
            if let control = generation.control { lines.append(control.sentence) }
            if let ratio = generation.ratio(.total) { lines.append("Pivot/direct total time (paired): \(GenerationReport.ratioText(ratio).display).") }
            for row in generation.served where row.lang == "all" {
                lines.append("\(row.route.rawValue): \(row.served) of \(row.n) served in their own language (\(ReportCell.percent(row.rate).display)%).")
            }
            for route in Route.allCases {
                let rows = generation.funnel?.rows.filter { $0.route == route && $0.lang == "all" } ?? []
                guard !rows.isEmpty else { continue }
                lines.append("\(route.rawValue), served per detection config: " + rows.map { row in
                    "\(row.config) \(row.served) of \(row.n)" + (row.lostToDetection.map { ", \($0) more with the true language" } ?? "")
                }.joined(separator: "; ") + ".")
            }
            if generation.crisisRecords > 0 {
                lines.append("\(generation.crisisRecords) crisis-flagged record(s) got the fixed safe reply; they are counted only, never shown.")
            }
            if let check = generation.calibrationConsistency, !check.isConsistent { lines.append("⚠ " + check.sentence) }
        }
        page.headline("Headline", lines: lines)
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
