import Foundation

/// Short, user-facing text for a `DecodingError`.
package enum JSONErrorText {
    package static func describe(_ error: Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        case .dataCorrupted(let context):
            return "invalid JSON: \(context.underlyingError.map { "\($0.localizedDescription)" } ?? context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }
}
