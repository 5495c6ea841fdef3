import Foundation
import Support

/// One translated string read from a localisation file, before any filter: what `corpus import` starts from.
package struct LocalisedString: Sendable, Hashable {
    /// The translation.
    package var text: String
    /// The source-language string it translates, where the file holds it (a gettext msgid, a `.strings` key, a
    /// String Catalog's source value): a translation equal to it was left untranslated.
    package var english: String?
    /// What the string belongs to, for the item's `cluster:` tag: an emoji's code points, a Fluent file, a gettext domain.
    package var cluster: String
    /// A gettext context or a Fluent message id: what `--skip-context` matches.
    package var context: String
    /// Where it was read, for error messages.
    package var location: SourceLocation

    package init(text: String, english: String? = nil, cluster: String, context: String = "", location: SourceLocation) {
        self.text = text
        self.english = english
        self.cluster = cluster
        self.context = context
        self.location = location
    }
}

/// A localisation file format `corpus import` reads, chosen by the file's extension.
package enum LocalisationFormat: String, Sendable, CaseIterable {
    case po, mo, ftl, cldr = "xml", xcstrings, strings

    package init?(path: String) {
        self.init(rawValue: (path as NSString).pathExtension.lowercased())
    }

    /// Every string in the file at `path`; a String Catalog holds many languages, the others one.
    package func read(_ path: String, language: LanguageCode?) throws(ImportError) -> [LanguageCode?: [LocalisedString]] {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw .unreadable(path: path, reason: FileKind.reason(error, path: path))
        }
        let cluster = (path as NSString).lastPathComponent
        switch self {
        case .po: return [language: try GettextReader.po(data, path: path)]
        case .mo: return [language: try GettextReader.mo(data, path: path)]
        case .ftl: return [language: try FluentReader.read(data, path: path, cluster: cluster)]
        case .cldr: return [language: try CLDRAnnotationReader.read(data, path: path)]
        case .strings: return [language: try StringsReader.strings(data, path: path, cluster: cluster)]
        case .xcstrings: return try StringsReader.catalog(data, path: path, cluster: cluster, only: language)
        }
    }
}
