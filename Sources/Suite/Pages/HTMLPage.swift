import Support
import Foundation
import ByteIO

/// One self-contained HTML page: the data in `<main>`, styling and a small sorting and filtering script
/// inline, and a Content-Security-Policy that lets only that script and style run and forbids every
/// request (no fonts, images, scripts or frames from anywhere).
package struct HTMLPage: Sendable {
    package var title: String
    /// The body's data section, built from escaped text only.
    package private(set) var main = ""

    package init(title: String) { self.title = title }

    package mutating func heading(_ text: String, level: Int = 2, id: String? = nil) {
        main += "<h\(level)\(id.map { " id=\"\(ReportText.html($0))\"" } ?? "")>\(ReportText.html(text))</h\(level)>\n"
    }

    package mutating func paragraph(_ text: String, strong: Bool = false) {
        main += strong ? "<p><strong>\(ReportText.html(text))</strong></p>\n" : "<p>\(ReportText.html(text))</p>\n"
    }

    package mutating func list(_ items: [String]) {
        guard !items.isEmpty else { return }
        main += "<ul>\n" + items.map { "<li>\(ReportText.html($0))</li>\n" }.joined() + "</ul>\n"
    }

    /// The boxed first lines a reader sees: an optional strong verdict (`pass` or `regression` styles it;
    /// its words carry the meaning), then `lines`.
    package mutating func headline(_ label: String, verdict: (text: String, style: String)? = nil, lines: [String]) {
        headline(label, verdict: verdict, linked: lines.map { ($0, nil) })
    }

    /// A headline whose lines each end in a link (`link.text`) to the part of the page (`link.anchor`) that has the rest.
    package mutating func headline(_ label: String, verdict: (text: String, style: String)? = nil,
                                  linked lines: [(text: String, link: (anchor: String, text: String)?)]) {
        main += "<section class=\"headline\" aria-label=\"\(ReportText.html(label))\">\n"
        if let verdict {
            main += "<p class=\"verdict-\(ReportText.html(verdict.style))\"><strong>\(ReportText.html(verdict.text))</strong></p>\n"
        }
        if !lines.isEmpty {
            main += "<ul>\n" + lines.map { line in
                "<li>" + ReportText.html(line.text)
                    + (line.link.map { " <a href=\"#\(ReportText.html($0.anchor))\">→ \(ReportText.html($0.text))</a>" } ?? "") + "</li>\n"
            }.joined() + "</ul>\n"
        }
        main += "</section>\n"
    }

    /// Opens a part folded away until a reader opens it (or a link into it does): `summary` is the line that stays
    /// visible and says what is inside.
    package mutating func openFold(_ summary: String, id: String? = nil) {
        main += "<details\(id.map { " id=\"\(ReportText.html($0))\"" } ?? "")><summary>\(ReportText.html(summary))</summary>\n"
    }

    package mutating func closeFold() { main += "</details>\n" }

    /// A table, see `HTMLWriter.render`.
    package mutating func table(_ table: ReportTable, id: String, filters: [String] = [], rowCap: Int = HTMLWriter.defaultRowCap,
                               rowCount: Int? = nil, rowIDs: [String]? = nil, overflowNote: String = "", links: [[String?]]? = nil) {
        main += HTMLWriter.render(table, id: id, filters: filters, rowCap: rowCap, rowCount: rowCount, rowIDs: rowIDs, overflowNote: overflowNote,
                                  links: links)
    }

    /// Markup a page part built itself from escaped text only (`GenerationSideBySide`); not public, so
    /// nothing outside the library can put raw text on a page.
    mutating func markup(_ escaped: String) { main += escaped }

    /// An SVG chart written by `SVGBarChart` or `SVGHeatmap` (which escape their own text), inline.
    package mutating func chart(_ svg: String, label: String) {
        main += "<figure role=\"img\" aria-label=\"\(ReportText.html(label))\">\n" + svg + "</figure>\n"
    }

    /// Links to anchors on this page: `(anchor, text)`.
    package mutating func links(_ links: [(anchor: String, text: String)]) {
        guard !links.isEmpty else { return }
        main += "<ul>\n" + links.map { "<li><a href=\"#\(ReportText.html($0.anchor))\">\(ReportText.html($0.text))</a></li>\n" }.joined() + "</ul>\n"
    }

    /// Opens a section; `data` become its `data-` attributes (read by the page's script).
    package mutating func openSection(_ id: String, data: KeyValuePairs<String, String> = [:]) {
        main += "<section id=\"\(ReportText.html(id))\"" + data.map { " data-\(ReportText.html($0.key))=\"\(ReportText.html($0.value))\"" }.joined() + ">\n"
    }
    package mutating func closeSection() { main += "</section>\n" }

    /// The whole document.
    package var html: String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="referrer" content="no-referrer">
        <title>\(ReportText.html(title))</title>
        <style>\(HTMLAssets.style)</style>
        </head>
        <body>
        <main>
        <h1>\(ReportText.html(title))</h1>
        \(main)</main>
        <script>\(HTMLAssets.script)</script>
        </body>
        </html>

        """
    }

    /// Only the inline style and script of this page, by hash: an injected `<script>` or event handler
    /// could not run even if escaping failed, and nothing may be fetched.
    package static let contentSecurityPolicy = "default-src 'none'; script-src '\(hash(HTMLAssets.script))'; style-src '\(hash(HTMLAssets.style))'; "
        + "img-src 'none'; connect-src 'none'; font-src 'none'; frame-src 'none'; form-action 'none'; base-uri 'none'"

    static func hash(_ text: String) -> String {
        let hex = SHA256.hex(Data(text.utf8))
        var bytes = Data()
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)  // SHA256.hex gives lowercase hex digits only
            index = next
        }
        return "sha256-" + bytes.base64EncodedString()
    }

    /// The data section of a page (between `<main>` and `</main>`): what golden tests pin, not the styling.
    package static func dataSection(_ html: String) -> String {
        guard let start = html.range(of: "<main>\n"), let end = html.range(of: "</main>", options: .backwards) else { return "" }
        return String(html[start.upperBound..<end.lowerBound])
    }
}
