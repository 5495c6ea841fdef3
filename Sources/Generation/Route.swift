/// How a reply is produced.
package enum Route: String, Sendable, Codable, CaseIterable, Comparable {
    /// One completion in the reply language.
    case direct
    /// Translate to English, generate in English, translate back.
    case pivot

    package static func < (lhs: Route, rhs: Route) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Which route(s) `generate` runs: the router's choice, a forced route, or both for a head-to-head.
package enum RouteChoice: String, Sendable, Codable, CaseIterable {
    case auto, direct, pivot, both

    /// The routes to run for an item whose detected language is `supported` or not.
    package func routes(supported: Bool) -> [Route] {
        switch self {
        case .auto: [supported ? .direct : .pivot]
        case .direct: [.direct]
        case .pivot: [.pivot]
        case .both: [.direct, .pivot]
        }
    }
}
