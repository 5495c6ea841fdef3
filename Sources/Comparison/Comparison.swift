import Foundation
import Checks
import Detection
import Generation
import Corpus
import Provenance

/// Compares a CURRENT run against a BASE run: checks comparability, then every metric with its
/// polarity and threshold. Regressions fail the job; improvements are reported and never fail it.
package struct Comparison: Sendable, Encodable {
    package static let schemaVersion = 2

    package var schemaVersion: Int
    package var base: String
    package var current: String
    package var thresholds: Thresholds
    /// What differs between the runs' settings (the change under test), and mismatches let through
    /// by `--allow-mismatch`.
    package var notes: [String]
    package var checks: [MetricCheck]
    /// By config with a regression: the items it broke, in id order (the first `DetectionJoin.brokenCap`).
    package var brokenItems: [String: [String]]
    /// By config with a regression: how many items it broke (more than `brokenItems` holds when that was capped).
    package var brokenItemCounts: [String: Int] = [:]
    /// Latency left unjudged because a run's machine was unsteady (nil: judged, or skipped by `--latency skip`).
    package var latencyNotJudged: LatencyNotJudged?
    /// What the runs computed with that differs (machine, llama.cpp build, server settings, model file).
    package var environment: [EnvironmentDifference] = []
    /// The compare's α split between the kinds of gating check present (they add up to `thresholds.alpha`).
    package var alphaShares: [String: Double] = [:]

    enum CodingKeys: String, CodingKey {
        case schemaVersion = "schema_version", base, current, thresholds, mismatches, notes, checks, brokenItems = "broken_items", verdict
        case brokenItemCounts = "broken_item_counts"
        case latencyNotJudged = "latency_not_judged"
        case gatingChecks = "gating_checks"
        case environment, alphaShares = "alpha_shares", visibility = "can_see"
    }

    /// The runs' differences in named settings that were let through by `--allow-mismatch`.
    package var mismatches: [String]
    package var regressions: [MetricCheck] { checks.filter { $0.status == .regression } }
    package var improvements: [MetricCheck] { checks.filter { $0.status == .improvement } }
    package var verdict: String { regressions.isEmpty ? "pass" : "regression" }
    /// The tests Holm runs across (one family for the verdict, at `thresholds.alpha`).
    package var gatingChecks: Int { checks.filter(\.gating).count }

    /// `latency` says how latency is made comparable; the library default trusts the caller that both
    /// runs come from one machine (as tests on one server do); the CLI defaults to `.calibrated`.
    package init(base: RunResults, current: RunResults, thresholds: Thresholds, allowMismatch: Bool = false,
                latency: LatencyBasis = .sameRunner) throws {
        schemaVersion = Self.schemaVersion
        self.base = base.path
        self.current = current.path
        self.thresholds = thresholds
        // Errors are weighed by cost only when both runs were weighed by the same matrix.
        let costs = base.detection?.confusionCosts == current.detection?.confusionCosts ? current.detection?.confusionCosts : nil
        let join = try base.detectionStore.flatMap { a in try current.detectionStore.map { try DetectionJoin(base: a, current: $0, costs: costs) } }
        try Self.requireCommonItems(base, current, detection: join)
        var (mismatches, changes) = Self.differences(base, current)
        // Items only one run holds are outside every paired check: said, so a check over fewer items is not read as the whole run's.
        if let join, let x = base.detection, let y = current.detection {
            for (name, config) in join.configs {
                let paired = config.all.n, ours = x.metrics(config: name)?.n ?? 0, theirs = y.metrics(config: name)?.n ?? 0
                guard paired < ours || paired < theirs else { continue }
                changes.append("detection config '\(name)' compared on the \(paired) items both runs hold: \(ours - paired) of base's "
                               + "\(ours) and \(theirs - paired) of current's \(theirs) have no partner in the other run")
            }
        }
        let environment = base.generation.flatMap { a in current.generation.map { EnvironmentDifference.between(a, $0) } } ?? []
        mismatches += Self.environmentMismatches(environment, latency: latency)
        if !mismatches.isEmpty && !allowMismatch { throw ComparisonError.notComparable(mismatches) }
        self.mismatches = mismatches
        notes = mismatches.map { "mismatch allowed: \($0)" } + changes
        var checks: [MetricCheck] = []
        var broken: [String: [String]] = [:], brokenCounts: [String: Int] = [:]
        if let join {
            let detection = DetectionComparer.checks(join, thresholds: thresholds)
            checks += detection
            for check in detection where check.status == .regression && check.key[.lang] == nil {
                guard let config = check.key[.config] else { continue }
                guard let counts = join.configs.first(where: { $0.name == config })?.join else { continue }
                broken[config] = counts.brokenItems
                brokenCounts[config] = counts.all.broken
            }
        }
        if let a = base.generation, let b = current.generation {
            // A run without a calibration cannot be put on a machine scale at all: refused first, whatever its steadiness.
            if latency == .calibrated, a.provenance.calibration == nil || b.provenance.calibration == nil {
                _ = try MachineAdjustment.resolve(base: a.provenance.calibration, current: b.provenance.calibration, basis: latency,
                                                  margin: thresholds.calibrationMargin)
            }
            // An unsteady run's latency is not judged on any basis, its calibration not used: checked before the calibrations are compared.
            latencyNotJudged = LatencyNotJudged(base: a, current: b, basis: latency, environment: environment)
            notes += LatencyNotJudged.steadinessContext(base: a, current: b, basis: latency)
            let serverChange = environment.filter { $0.effect == .serverSpeed && $0.recordedOnBothSides }
                .map { "\($0.name): \($0.base) → \($0.current)" }.joined(separator: "; ")
            var (machine, note): (MachineAdjustment?, String)
            do {
                (machine, note) = try latencyNotJudged.map { (nil, $0.note) }
                    ?? MachineAdjustment.resolve(base: a.provenance.calibration, current: b.provenance.calibration, basis: latency,
                                                 margin: thresholds.calibrationMargin, serverChange: serverChange.isEmpty ? nil : serverChange)
            } catch let error as MachineComparabilityError where latency == .sameRunner {
                // Same-runner, calibrations far apart mean the sides were not measured together: unjudged, not refused.
                guard case .machinesDiffer(_, _, let factor, let margin, let component) = error else { throw error }
                let unjudged = LatencyNotJudged(sidesDiffer: String(format: "the two runs' machine calibrations differ by ×%.2f in %@, beyond the ×%.2f margin",
                                                                    factor, component, margin))
                latencyNotJudged = unjudged
                (machine, note) = (nil, unjudged.note)
            }
            notes.append(note)
            // A route most of whose requests collapsed is named, never passed over in silence (the others are judged).
            if latencyNotJudged == nil, machine != nil, case let routes = GenerationComparer.unjudgedRoutes(base: a, current: b), !routes.isEmpty {
                let unjudged = LatencyNotJudged(routes: routes)
                latencyNotJudged = unjudged
                notes.append(unjudged.note)
            }
            checks += GenerationComparer.checks(base: a, current: b, thresholds: thresholds, machine: machine)
        }
        alphaShares = Dictionary(uniqueKeysWithValues: MetricCheck.alphaShares(checks, alpha: thresholds.alpha).map { ($0.key.rawValue, $0.value) })
        self.checks = MetricCheck.familyWise(checks, alpha: thresholds.alpha).map { $0.settlingMoved() }.sorted { ($0.status, $0.metric, $0.key) < ($1.status, $1.metric, $1.key) }
        brokenItems = broken
        brokenItemCounts = brokenCounts
        self.environment = environment
        // With latency skipped and no fallbacks, two generation runs have nothing to check: that is a pass, not a mismatch.
        let shared = (base.detection != nil && current.detection != nil) || (base.generation != nil && current.generation != nil)
        if !shared { throw ComparisonError.notComparable(["the runs share no results (one is detection-only, the other generation-only?)"]) }
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(schemaVersion, forKey: .schemaVersion)
        try container.encode(base, forKey: .base)
        try container.encode(current, forKey: .current)
        try container.encode(thresholds, forKey: .thresholds)
        try container.encode(mismatches, forKey: .mismatches)
        try container.encode(notes, forKey: .notes)
        try container.encode(checks, forKey: .checks)
        try container.encode(brokenItems, forKey: .brokenItems)
        // Only when a list was capped, so that the JSON of every other comparison stays as it was.
        if brokenItemCounts.contains(where: { $0.value > (brokenItems[$0.key]?.count ?? 0) }) {
            try container.encode(brokenItemCounts, forKey: .brokenItemCounts)
        }
        try container.encode(verdict, forKey: .verdict)
        try container.encode(latencyNotJudged, forKey: .latencyNotJudged)
        try container.encode(gatingChecks, forKey: .gatingChecks)
        try container.encode(environment, forKey: .environment)
        try container.encode(alphaShares, forKey: .alphaShares)
        try container.encode(visibility, forKey: .visibility)
    }

    /// The environment differences that make runs incomparable: another model file (by SHA-256) or reply-language judge, a server build or
    /// setting that changes speed (unless latency is skipped), and another machine under a same-runner basis. A side that did not record a
    /// figure (an older report) is listed in the table but refuses nothing: there is no change to name.
    static func environmentMismatches(_ environment: [EnvironmentDifference], latency: LatencyBasis) -> [String] {
        environment.filter { difference in
            guard difference.recordedOnBothSides else { return false }
            if [.output, .judge, .api].contains(difference.effect) { return true }
            guard latency != .skip else { return false }
            return difference.effect == .serverSpeed || (difference.effect == .machine && latency == .sameRunner)
        }.map { "\($0.name) differs: \($0.base) vs \($0.current) (\($0.consequence))" }
    }

    /// A cost matrix in a few words: how many weights, and the errors it weighs most.
    static func describe(_ costs: ConfusionCosts?) -> String {
        guard let costs else { return "none" }
        let heaviest = costs.costs.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.prefix(3).map { "\($0.key) \(String(format: "%g", $0.value))" }
        return "\(costs.costs.count) weights, default \(String(format: "%g", costs.defaultCost))" + (heaviest.isEmpty ? "" : ": " + heaviest.joined(separator: ", "))
    }

    /// Paired checks over no pairs say "no regression" about nothing: runs whose halves share no item
    /// are refused, even with `--allow-mismatch`.
    static func requireCommonItems(_ a: RunResults, _ b: RunResults, detection: DetectionJoin?) throws {
        if let detection, let disjoint = detection.disjoint {
            try refuse("detection", base: disjoint.base, current: disjoint.current)
        }
        if let x = a.generation, let y = b.generation {
            let ids = (Set(x.records.map(\.itemID)), Set(y.records.map(\.itemID)))
            if ids.0.isDisjoint(with: ids.1) { try refuse("generation", base: (ids.0.count, ids.0.min()), current: (ids.1.count, ids.1.min())) }
        }
    }

    private static func refuse(_ half: String, base: (count: Int, first: String?), current: (count: Int, first: String?)) throws {
        let example = [base.first, current.first].map { $0.map { "'\($0)'" } ?? "none" }
        throw ComparisonError.nothingInCommon("the \(half) results share no item id (\(base.count) in base, e.g. \(example[0]); \(current.count) in current, e.g. \(example[1])): "
            + "compare runs of the same corpus")
    }

    /// Mismatches make runs incomparable (different corpora or items); changes are what is under test.
    static func differences(_ a: RunResults, _ b: RunResults) -> (mismatches: [String], changes: [String]) {
        var mismatches: [String] = [], changes: [String] = []
        if let x = a.detection, let y = b.detection {
            let corpora = CorpusDifference.between(x.provenance.corpora, y.provenance.corpora)
            mismatches += corpora.mismatches
            changes += corpora.changes
            if (x.confusionCosts == nil) != (y.confusionCosts == nil) {
                changes.append("only one run was weighed by a confusion-cost matrix: the cost-weighted error is not compared")
            } else if x.confusionCosts != y.confusionCosts {
                mismatches.append("the confusion-cost matrices differ (\(Self.describe(x.confusionCosts)) vs \(Self.describe(y.confusionCosts))): "
                    + "the cost-weighted error is not compared")
            }
            let names = (x.configs.map(\.name), y.configs.map(\.name))
            if Set(names.0) != Set(names.1) { mismatches.append("detection configs differ: \(names.0) vs \(names.1)") }
            for config in y.configs {
                if let old = x.configs.first(where: { $0.name == config.name }), old != config {
                    changes.append("detection config '\(config.name)' changed: candidates \(old.candidates) → \(config.candidates), hints \(old.hints) → \(config.hints), detector \(old.detector) → \(config.detector)")
                }
            }
        }
        if let x = a.generation, let y = b.generation {
            mismatches += GenerationComparability.mismatches(x, y)
            if x.settings.detection != y.settings.detection { changes.append("generation detection config changed: \(x.settings.detection) → \(y.settings.detection)") }
            if x.provenance.host.cpu != y.provenance.host.cpu { changes.append("machine changed: \(x.provenance.host.cpu) → \(y.provenance.host.cpu); latency is not comparable across machines") }
            for (name, report) in [("base", x), ("current", y)] where report.control?.verdict == .biased {
                changes.append("the \(name) run's English A/A control excludes 1.0: its timings are biased")
            }
        }
        if (a.detection == nil) != (b.detection == nil) { changes.append("only one run has detection results; detection not compared") }
        if (a.generation == nil) != (b.generation == nil) { changes.append("only one run has generation results; generation not compared") }
        return (mismatches, changes)
    }
}

/// Why two runs cannot be compared.
package enum ComparisonError: Error, Sendable, CustomStringConvertible {
    case notComparable([String])
    /// Nothing to pair: no override makes such runs comparable.
    case nothingInCommon(String)
    /// Shards that cannot be merged into one run (`merge`).
    case cannotMerge(String)

    package var description: String {
        switch self {
        case .nothingInCommon(let reason):
            "the runs are not comparable: \(reason)"
        case .cannotMerge(let reason):
            "cannot merge: \(reason)"
        case .notComparable(let reasons):
            "the runs are not comparable: " + reasons.joined(separator: "; ") + " (pass --allow-mismatch to compare anyway)"
        }
    }
}
