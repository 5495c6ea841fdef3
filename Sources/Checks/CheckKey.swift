/// What a check is of: named dimensions in a fixed order, written `config=constrained lang=uk` or
/// `variant=b route=pivot reason=timeout` in every report.
package struct CheckKey: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The dimensions a check can be sliced by, in the order a key writes them.
    package enum Dimension: String, Sendable, CaseIterable, Comparable {
        case config, variant, route, lang, reason

        package static func < (lhs: Dimension, rhs: Dimension) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// The key's values by dimension; a dimension the check is not sliced by is absent.
    package private(set) var values: [Dimension: String]

    package init(_ values: [Dimension: String] = [:]) { self.values = values }

    package subscript(dimension: Dimension) -> String? { values[dimension] }

    /// This key sliced further: `route=direct` with `lang=ru` is `route=direct lang=ru`.
    package func with(_ dimension: Dimension, _ value: String) -> CheckKey {
        var out = self
        out.values[dimension] = value
        return out
    }

    package var description: String {
        values.sorted { $0.key < $1.key }.map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: " ")
    }

    package static func < (lhs: CheckKey, rhs: CheckKey) -> Bool { lhs.description < rhs.description }

    /// Reads a key as reports write it; nil when a part is not `dimension=value` of a known dimension.
    package init?(parsing text: String) {
        var values: [Dimension: String] = [:]
        for part in text.split(separator: " ") {
            guard let equals = part.firstIndex(of: "="), let dimension = Dimension(rawValue: String(part[..<equals])),
                  values[dimension] == nil else { return nil }
            values[dimension] = String(part[part.index(after: equals)...])
        }
        self.values = values
    }

    package init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let key = CheckKey(parsing: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a check key: '\(text)' (dimension=value, "
                + "dimensions \(Dimension.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self = key
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
