import Detection
import Foundation
import Generation

extension DetectionOutput {
    /// Every summary file of a detection run and its report.html: what `detect`, a merge and the
    /// benchmarks leave in a run directory. The page lives here, above detection, because it also
    /// shows generation.
    public static func writeReports(_ report: DetectionReport, to directory: URL) throws {
        try write(report, to: directory)
        try RunPage.write(detection: report, generation: nil, to: directory)
    }
}

extension GenerationOutput {
    /// Every summary file of a generation run and its report.html.
    public static func writeReports(_ report: GenerationReport, to directory: URL) throws {
        try write(report, to: directory)
        try RunPage.write(detection: nil, generation: report, to: directory)
    }
}
