import Support
import Foundation

/// A secret sent as `Authorization: Bearer …`. It prints, dumps and reflects as a placeholder, so
/// interpolating it (or anything holding it) into a report, log or error cannot leak it.
package struct APIKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    let value: String

    package init(_ value: String) {
        self.value = value
        // From now on nothing this process prints or records can carry it (`Redaction`).
        Redaction.register(secret: value)
    }

    /// The key in `environment[name]`; nil when the variable is unset or empty.
    package static func from(environment: [String: String], name: String) -> APIKey? {
        guard let value = environment[name], !value.isEmpty else { return nil }
        return APIKey(value)
    }

    /// Whether `name` can be an environment variable's name and does not look like a key pasted in its place
    /// (`sk-…` fails the name rule; a long run of mixed-case letters and digits without `_` is a key, not a name).
    package static func isVariableName(_ name: String) -> Bool {
        let identifier = !name.isEmpty && !(name.first?.isNumber ?? false)
            && name.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        let keyLike = name.count >= 20 && !name.contains("_") && name.contains(where: \.isLowercase) && name.contains(where: \.isNumber)
        return identifier && !keyLike
    }

    package var description: String { "<redacted>" }
    package var debugDescription: String { "<redacted>" }
    package var customMirror: Mirror { Mirror(self, children: [:]) }

    /// `text` with every occurrence of the key replaced: a server may echo the request headers in an error body.
    func redact(_ text: String) -> String {
        text.replacingOccurrences(of: value, with: "<redacted>")
    }
}
