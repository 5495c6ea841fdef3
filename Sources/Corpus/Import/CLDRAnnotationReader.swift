import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// CLDR emoji annotations (`common/annotations/<lang>.xml`): each `|`-separated keyword and each short name
/// (`type="tts"`) is a string, clustered by the emoji's code points. `annotationsDerived` is templated and not read.
enum CLDRAnnotationReader {
    static func read(_ data: Data, path: String) throws(ImportError) -> [LocalisedString] {
        let delegate = Delegate(path: path)
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        parser.shouldResolveExternalEntities = false
        // FoundationXML on Linux can return true and still set an error (an unclosed element at the end).
        let parsed = parser.parse()
        if !parsed || parser.parserError != nil {
            let code = (parser.parserError as NSError?)?.code ?? 0
            throw .malformed(SourceLocation(file: path, line: parser.lineNumber), "malformed XML (libxml2 error \(code))")
        }
        guard delegate.sawLDML else {
            throw .malformed(SourceLocation(file: path, line: parser.lineNumber), "not a CLDR annotations file (no <ldml> root)")
        }
        return delegate.strings
    }

    private final class Delegate: NSObject, XMLParserDelegate {
        let path: String
        var strings: [LocalisedString] = []
        var sawLDML = false
        var codePoints: String?, line = 0, text = ""

        init(path: String) { self.path = path }

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String]) {
            if name == "ldml" { sawLDML = true }
            guard name == "annotation", let cp = attributes["cp"] else { return }
            codePoints = cp.unicodeScalars.map { String(format: "U+%04X", $0.value) }.joined(separator: "-")
            line = parser.lineNumber
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if codePoints != nil { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            guard name == "annotation", let cluster = codePoints else { return }
            for keyword in text.split(separator: "|") {
                let phrase = keyword.trimmingCharacters(in: .whitespacesAndNewlines)
                if !phrase.isEmpty {
                    strings.append(LocalisedString(text: phrase, cluster: cluster, location: SourceLocation(file: path, line: line)))
                }
            }
            codePoints = nil
        }
    }
}
