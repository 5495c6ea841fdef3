/// The names of the metrics checks are built for (`MetricCheck.metric`), named once: the checks, the
/// verdict's notes and the pages match on them. The latency and token measures' names are their enums'
/// raw values in `Comparison` (a test holds those equal to these).
package enum MetricName {
    package static let accuracy = "detection.accuracy"
    package static let confusionCost = "detection.confusion_cost"
    package static let served = "generation.served_in_own_language"
    package static let fallbackRate = "generation.fallback_rate"
    package static let latency = "generation.latency"
    package static let ttft = "generation.ttft"
    package static let tpot = "generation.tpot"
    package static let slowestTenth = "generation.latency_slowest_tenth"
    package static let tokensGenerated = "generation.tokens_generated"
    package static let translateInChrF = "generation.translate_in_chrf"
    package static let collapsedRequests = "generation.collapsed_requests"
}
