/// Latency and fallback checks between two generation runs.
enum GenerationComparer {
    /// `machine` scales latency ratios to a common machine; nil skips latency checks.
    static func checks(base: GenerationReport, current: GenerationReport, thresholds: Thresholds,
                       machine: MachineAdjustment? = .identity) -> [MetricCheck] {
        var checks: [MetricCheck] = []
        for route in Route.allCases {
            let before = base.records.filter { $0.route == route && $0.fallbackReason != .crisisProtocol }
            let after = current.records.filter { $0.route == route && $0.fallbackReason != .crisisProtocol }
            guard !before.isEmpty, !after.isEmpty else { continue }
            let a = before.filter { $0.outcome == .model }.map(\.totalMs), b = after.filter { $0.outcome == .model }.map(\.totalMs)
            if let machine, a.count >= 2, b.count >= 2 {
                for (name, q) in [("p50", 0.5), ("p95", 0.95)] {
                    checks.append(latency(a, b, q: q, name: name, key: "route=\(route.rawValue)", threshold: thresholds.latencyRatio, machine: machine))
                }
            }
            let reasons = Set(before.compactMap(\.fallbackReason) + after.compactMap(\.fallbackReason)).sorted()
            for reason in reasons {
                let x1 = before.filter { $0.fallbackReason == reason }.count, x2 = after.filter { $0.fallbackReason == reason }.count
                checks.append(fallback(x1: x1, n1: before.count, x2: x2, n2: after.count, key: "route=\(route.rawValue) reason=\(reason.rawValue)",
                                       points: thresholds.fallbackPoints, alpha: thresholds.alpha))
            }
        }
        return checks
    }

    static func latency(_ base: [Double], _ current: [Double], q: Double, name: String, key: String, threshold: Double,
                        machine: MachineAdjustment = .identity) -> MetricCheck {
        let before = Statistics.quantile(base, q), after = Statistics.quantile(current, q)
        let ratio = machine.scale(before > 0 ? after / before : .nan)
        let interval = machine.scale(Statistics.bootstrapQuantileRatio(base: base, current: current, q))
        let status: MetricCheck.Status = interval.low > 1 + threshold ? .regression : (interval.high < 1 - threshold ? .improvement : .unchanged)
        return MetricCheck(metric: "generation.latency_\(name)", key: key, polarity: .lowerIsBetter, base: before, current: after,
                           delta: ratio - 1, interval: interval, pValue: nil, threshold: threshold, n: current.count, status: status,
                           rule: "bootstrap 95% interval of the \(name) ratio CURRENT/BASE entirely above \(1 + threshold) (regression) or below \(1 - threshold) (improvement)"
                               + (machine.basis == .calibrated ? ", ratio and interval divided by the machine calibration ratio" : ""))
    }

    static func fallback(x1: Int, n1: Int, x2: Int, n2: Int, key: String, points: Double, alpha: Double) -> MetricCheck {
        let before = Double(x1) / Double(n1), after = Double(x2) / Double(n2)
        let p = Statistics.twoProportionTest(x1: x1, n1: n1, x2: x2, n2: n2)
        let deltaPoints = (after - before) * 100
        let status: MetricCheck.Status = p < alpha && deltaPoints > points ? .regression : (p < alpha && -deltaPoints > points ? .improvement : .unchanged)
        return MetricCheck(metric: "generation.fallback_rate", key: key, polarity: .lowerIsBetter, base: before, current: after,
                           delta: after - before, interval: Statistics.wilson(successes: x2, trials: n2), pValue: p, threshold: points / 100,
                           n: n2, status: status, rule: "two-proportion z-test p < \(alpha) and a change of more than \(points) points")
    }
}
