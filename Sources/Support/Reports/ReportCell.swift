import Foundation

/// One value in a report table. Numbers carry their display precision so every writer prints the
/// same digits (and repeated runs print byte-identical files).
package enum ReportCell: Sendable, Hashable {
    case text(String)
    case int(Int)
    case number(Double, digits: Int)
    case bool(Bool)
    case empty

    /// Text as CSV and Markdown show it.
    package var display: String {
        switch self {
        case .text(let text): text
        case .int(let value): String(value)
        case .number(let value, let digits): value.isFinite ? String(format: "%.\(digits)f", value) : "nan"
        case .bool(let value): value ? "true" : "false"
        case .empty: ""
        }
    }

    /// A fraction shown as a percentage with one decimal, e.g. 0.9132 → 91.3.
    package static func percent(_ fraction: Double) -> ReportCell { .number(fraction * 100, digits: 1) }
    package static func ms(_ value: Double) -> ReportCell { .number(value, digits: 1) }
    package static func optionalText(_ text: String?) -> ReportCell { text.map(ReportCell.text) ?? .empty }
    /// A count that may be unknown: empty rather than 0.
    package static func optionalInt(_ value: Int?) -> ReportCell { value.map(ReportCell.int) ?? .empty }
}

extension ReportCell: Encodable {
    package func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let text): try container.encode(text)
        case .int(let value): try container.encode(value)
        case .number(let value, let digits):
            if value.isFinite {
                // Round through the printed form so JSON equals what the tables show.
                try container.encode(Double(String(format: "%.\(digits)f", value)) ?? value)
            } else {
                try container.encodeNil()
            }
        case .bool(let value): try container.encode(value)
        case .empty: try container.encodeNil()
        }
    }
}
