import Checks
import Generation

extension GenerationReport {
    /// This report with each variant's paired checks against the reference (the first variant) in its section: what
    /// `compare` judges between two runs, judged between the variants of one. Called by whatever made the report (a
    /// run, a merge, a re-judging), so that every check is built in this target.
    package func judgingVariants() -> GenerationReport {
        guard let variants = settings.variants, var sections = self.variants, sections.count > 1 else { return self }
        let reports = VariantSection.reports(variants, records: records, settings: settings, provenance: provenance)
        for index in sections.indices.dropFirst() {
            sections[index].versusReference = GenerationComparer.checks(base: reports[0], current: reports[index], thresholds: .default, perLanguage: false)
                + GenerationComparer.servedByLanguage(base: reports[0], current: reports[index], thresholds: .default)
        }
        var judged = self
        judged.variants = sections
        return judged
    }
}
