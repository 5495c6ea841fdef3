import Support
import Foundation
import Corpus
import Provenance

/// detection.md and its charts.
extension DetectionReport {
    package static let confusionChartFile = "detection-cyrillic.svg"
    package static let lengthChartFile = "detection-length.svg"

    package var markdown: String {
        var out = "# Language detection\n\n"
        out += "\(items) items × \(configs.count) configs. Corpora: "
        out += provenance.corpora.map { "\(ReportText.code($0.path)) (\($0.items))" }.joined(separator: ", ") + ".\n\n"
        out += missingCorporaMarkdown
        for failed in failedConfigs { out += "**⚠️ \(failed.markdownSentence).**\n\n" }
        for partly in partlyFailedConfigs { out += "⚠️ \(partly.markdownSentence).\n\n" }
        out += MarkdownWriter.render(configTable) + "\n"
        out += candidateSetMarkdown
        out += sweepMarkdown
        if !comparisons.isEmpty {
            out += MarkdownWriter.render(comparisonTable)
            out += "\n_fixed_: right in *other*, wrong in *base*; _broken_: the reverse. Flipped items are listed in `detection-items.csv` (column `flip`, against the first config).\n\n"
        }
        // The shipped config's figures per language; each other config's folded under it.
        if let shipped = shippedConfig {
            out += MarkdownWriter.render(perLanguageTable(of: [shipped], title: "Per language, \(shipped.name) (recall = the language's accuracy)")) + "\n"
            for config in primaryConfigs where config.name != shipped.name {
                out += "<details><summary>Per language for <code>\(ReportText.html(config.name))</code></summary>\n\n"
                out += MarkdownWriter.render(perLanguageTable(of: [config], title: config.name), heading: false) + "\n</details>\n\n"
            }
        }
        if let last = shippedConfig, let matrix = confusion[last.name] {
            let block = matrix.block(ConfusionMatrix.cyrillic)
            if !block.rows.isEmpty {
                out += "### Cyrillic confusion (\(ReportText.code(last.name)))\n\n![Cyrillic confusion](\(Self.confusionChartFile))\n\n"
                out += MarkdownWriter.render(confusionTable(block, title: "Cyrillic block"), heading: false) + "\n"
                for config in primaryConfigs where config.name != last.name {
                    guard let other = confusion[config.name]?.block(ConfusionMatrix.cyrillic), !other.rows.isEmpty else { continue }
                    out += "<details><summary>Cyrillic block for <code>\(ReportText.html(config.name))</code></summary>\n\n"
                    out += MarkdownWriter.render(confusionTable(other, title: config.name), heading: false) + "\n</details>\n\n"
                }
            }
        }
        out += "### Accuracy by length\n\n![Accuracy by length](\(Self.lengthChartFile))\n\n"
        out += MarkdownWriter.render(sliceTable(.length, title: "by length"), heading: false) + "\n"
        let tags = sliceTable(.tag, title: "Accuracy by tag")
        if !tags.rows.isEmpty { out += MarkdownWriter.render(tags) + "\n" }
        for corpus in taggedCorpora {
            out += "### The \(ReportText.code(corpus)) corpus\n\n"
            out += "Its items alone (tag \(ReportText.code("corpus:" + corpus)); by source: the `source:` rows above). The interval is the \(ReportText.code(shippedConfig?.name ?? "")) config's.\n\n"
            out += MarkdownWriter.render(corpusTable(corpus, by: .lang, title: "per language"), heading: false) + "\n"
            out += MarkdownWriter.render(corpusTable(corpus, by: .length, title: "by length"), heading: false) + "\n"
        }
        for slice in sharedTexts {
            out += "### Texts shared by several languages (\(ReportText.code(slice.name)))\n\n" + ReportText.markdown(sharedTextSentence(slice)) + "\n\n"
            out += MarkdownWriter.render(sharedTextTable(slice, title: "any of its languages"), heading: false) + "\n"
        }
        out += MarkdownWriter.render(timingTable) + "\n"
        out += "### Definitions\n\n"
        for (name, text) in definitions.sorted(by: { $0.key < $1.key }) { out += "- **\(name)**: \(text)\n" }
        out += "\n" + ProvenanceMarkdown.footer(provenance)
        return out
    }

    /// One warning per corpus the suite names as built at set-up that was not there.
    package var missingCorporaMarkdown: String {
        (provenance.missingCorpora ?? []).map { "**⚠️ " + ReportText.markdown(MissingCorpus.sentence($0)) + ".**\n\n" }.joined()
    }

    package var confusionChart: String? { confusionChart(link: nil) }

    /// The Cyrillic confusion heatmap of the shipped config; `link` gives a cell's link from (config, true, predicted).
    package func confusionChart(link: (@Sendable (_ config: String, _ lang: String, _ predicted: String) -> String?)?) -> String? {
        guard let last = shippedConfig, let block = confusion[last.name]?.block(ConfusionMatrix.cyrillic), !block.rows.isEmpty else { return nil }
        let config = last.name
        var cellLink: (@Sendable (String, String) -> String?)?
        if let link { cellLink = { row, column in row == column ? nil : link(config, row, column) } }
        return SVGHeatmap(title: "Cyrillic confusion — \(config)", rowLabels: block.rows, columnLabels: block.columns, counts: block.counts,
                          link: cellLink).render()
    }

    package var lengthChart: String {
        let groups = LengthBucket.allCases.compactMap { bucket -> SVGBarChart.Group? in
            let values = primaryConfigs.map { metrics(config: $0.name, slice: SliceKey.length(bucket.rawValue).description).map { $0.accuracy * 100 } }
            return values.allSatisfy({ $0 == nil }) ? nil : SVGBarChart.Group(label: "\(bucket.rawValue) words", values: values)
        }
        return SVGBarChart(title: "Detection accuracy by length", unit: "%", series: primaryConfigs.map(\.name), groups: groups, maximum: 100).render()
    }
}

/// The provenance footer every Markdown report ends with.
package enum ProvenanceMarkdown {
    package static func footer(_ p: Provenance) -> String {
        var out = "---\n"
        out += "langbench \(ReportText.markdown(p.toolVersion))" + (p.gitCommit.map { " · commit \(ReportText.code(String($0.prefix(12))))" } ?? "")
        out += " · \(ReportText.markdown(p.host.cpu)), \(p.host.cores) cores · started \(ReportText.markdown(p.startedAt))"
            + (p.finishedAt.map { ", finished \(ReportText.markdown($0))" } ?? "") + "\n"
        if let calibration = p.calibration {
            out += "\nMachine calibration: \(ReportText.markdown(calibration.summary)). \(CalibrationConsistency(calibration).sentence)\n"
        }
        out += "\nCommand: \(ReportText.code(p.command.joined(separator: " ")))\n"
        for source in p.corpora { out += "\n- \(ReportText.code(source.path)) \(source.format.rawValue), \(source.items) items, sha256 \(ReportText.code(source.sha256.prefix(16) + "…"))" }
        return out + "\n"
    }
}
