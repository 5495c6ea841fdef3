/// Why `corpus import` could not read its inputs; every case names the file (and line where there is one).
/// The CLI exits 65 for all of them.
package enum ImportError: Error, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case unknownFormat(path: String)
    case malformed(SourceLocation, String)
    case unknownLanguage(String, SourceLocation)
    case noLanguage(path: String)
    case noUsableItem(paths: [String])

    package var description: String {
        switch self {
        case .unreadable(let path, let reason): "\(path): cannot read (\(reason))"
        case .unknownFormat(let path):
            "\(path): not a localisation file; corpus import reads .po, .mo, .ftl, CLDR annotation .xml, .xcstrings and .strings"
        case .malformed(let location, let reason): "\(location.line > 0 ? location.description : location.file): \(reason)"
        case .unknownLanguage(let code, let location): "\(location.line > 0 ? location.description : location.file): unknown language '\(code)'"
        case .noLanguage(let path): "\(path): give the language of this file as LANG=PATH"
        case .noUsableItem(let paths): "no usable item in \(paths.joined(separator: ", ")) after filtering (see --max-words and the other filters)"
        }
    }
}
