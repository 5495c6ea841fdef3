/// A config as it ran, echoed into the report (`DetectionReport.ConfigEcho`) and the results log's header.
public struct DetectionConfigEcho: Sendable, Hashable, Codable {
    package var name: String
    package var detector: String
    package var candidates: String
    package var resolvedCandidates: [String]?
    package var hints: String

    package init(name: String, detector: String, candidates: String, resolvedCandidates: [String]? = nil, hints: String) {
        self.name = name
        self.detector = detector
        self.candidates = candidates
        self.resolvedCandidates = resolvedCandidates
        self.hints = hints
    }

    enum CodingKeys: String, CodingKey {
        case name, detector, candidates, resolvedCandidates = "resolved_candidates", hints
    }
}
