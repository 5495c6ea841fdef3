/// The one way text from data (config, variant, profile and file names, tags, ids, language labels,
/// commands) enters a Markdown, SVG/XML or HTML report: inert in the context it lands in, on one line,
/// and with no bidirectional control left to reorder what a reader sees.
///
/// Every context first makes the text one line (each control character, line breaks included, becomes
/// a space; CRLF one space) and shows each bidi embedding, override or isolate (U+202A–U+202E,
/// U+2066–U+2069, the "Trojan Source" characters) as a visible `⟨U+202E⟩`. Never put data into a URL
/// (`href`, `src`, a Markdown link target): no escaping makes `javascript:` safe there.
package enum ReportText {
    /// Where the text lands.
    package enum Context: Sendable, CaseIterable {
        /// Markdown prose, headings, list items: HTML, link and code syntax inert (`<`, `>`, `&`, `[`, `]`,
        /// `\` and backticks as character references, which CommonMark never reads as syntax).
        case markdownInline
        /// A GitHub-flavoured Markdown table cell: as `markdownInline`, and `|` escaped so the row keeps its cells.
        case markdownCell
        /// A code span: `` `text` `` when the text needs no escaping, else `<code>…</code>` with
        /// character references (a backtick in the text would close a backtick span).
        case markdownCode
        /// XML or SVG character data or a double- or single-quoted attribute value.
        case xml
        /// HTML text or a quoted attribute value (not a URL attribute), also inert as Markdown.
        case html
    }

    /// `text` made inert for `context`.
    package static func escape(_ text: String, for context: Context) -> String {
        switch context {
        case .markdownInline: markdown(text)
        case .markdownCell: cell(text)
        case .markdownCode: code(text)
        case .xml: xml(text)
        case .html: html(text)
        }
    }

    package static func markdown(_ text: String) -> String {
        replacing(text, markdownReferences)
    }

    package static func cell(_ text: String) -> String {
        replacing(text, markdownReferences.merging(["|": "\\|"]) { $1 })
    }

    package static func code(_ text: String) -> String {
        // In a backtick span everything is literal but a backtick; a line break, a control and `|` (which
        // ends a table cell even there) need references, and `<`, `>` and `&` get them so no raw tag is left.
        if !text.unicodeScalars.contains(where: { scalar in "`<>&|".unicodeScalars.contains(scalar) || needsMapping(scalar) }) {
            return text.isEmpty ? "<code></code>" : "`" + text + "`"
        }
        return "<code>" + html(text) + "</code>"
    }

    package static func xml(_ text: String) -> String {
        replacing(text, ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"])
    }

    /// HTML text or attribute, also inert as Markdown (it may sit in a Markdown file's `<details>` or
    /// `<code>`, where Markdown still reads emphasis, code spans and links): every syntax character a reference.
    package static func html(_ text: String) -> String {
        replacing(text, htmlReferences)
    }

    /// A file name beside the report as a Markdown link target: everything but letters, digits and
    /// `-._~/` percent-encoded, so a name cannot end the link, start a scheme (`javascript:`) or leave a line.
    package static func relativeLink(_ name: String) -> String {
        var out = ""
        for byte in name.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if (c.isASCII && (c.isLetter || c.isNumber)) || "-._~/".contains(c) { out.append(c) }
            else { out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(2) }
        }
        return out
    }

    static let markdownReferences: [Unicode.Scalar: String] = [
        "&": "&amp;", "<": "&lt;", ">": "&gt;", "`": "&#96;", "[": "&#91;", "]": "&#93;", "\\": "&#92;",
    ]

    static let htmlReferences: [Unicode.Scalar: String] = markdownReferences.merging([
        "\"": "&quot;", "'": "&#39;", "|": "&#124;", "*": "&#42;", "_": "&#95;",
    ]) { $1 }

    /// A control character (shown as a space) or a bidi control (shown by its code point).
    static func needsMapping(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || isBidiControl(scalar)
    }

    static func isBidiControl(_ scalar: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
    }

    private static func replacing(_ text: String, _ references: [Unicode.Scalar: String]) -> String {
        // Most names need nothing: no copy for them.
        guard text.unicodeScalars.contains(where: { references[$0] != nil || needsMapping($0) }) else { return text }
        var out = ""
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            defer { previousWasCR = scalar == "\r" }
            if let reference = references[scalar] {
                out += reference
            } else if isBidiControl(scalar) {
                out += "⟨U+" + String(scalar.value, radix: 16, uppercase: true) + "⟩"
            } else if needsMapping(scalar) {
                if scalar == "\n" && previousWasCR { continue }  // CRLF is one line break: one space
                out += " "
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
