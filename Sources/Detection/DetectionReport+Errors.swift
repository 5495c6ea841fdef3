import Support


/// Configs whose detector failed items: their accuracy counts those items as wrong, and past half of
/// them it measures the failure, not the detector.
extension DetectionReport {
    /// One config where items ended in a detector error.
    public struct FailedConfig: Sendable, Hashable {
        package var config: String
        package var errors: Int
        package var items: Int
        /// The first error, to say what went wrong.
        package var example: String

        /// More than half the items failed: the config's accuracy is not a measurement.
        package var isFailed: Bool { errors * 2 > items }

        package var sentence: String {
            "config '\(config)': \(errors) of \(items) items failed in the detector (e.g. \(example)); " + consequence
        }

        /// The sentence for detection.md: the config name and the detector's error are data.
        package var markdownSentence: String {
            "config \(ReportText.code(config)): \(errors) of \(items) items failed in the detector (e.g. \(ReportText.markdown(example))); " + consequence
        }

        private var consequence: String {
            isFailed ? "its accuracy is not a measurement" : "they count as wrong"
        }
    }

    /// The configs of a run's tally with at least one detector error.
    static func configsWithErrors(_ tally: DetectionTally) -> [FailedConfig] {
        zip(tally.echoes, tally.configs).compactMap { echo, own in
            guard own.results > 0, own.errors > 0, let example = own.firstError else { return nil }
            return FailedConfig(config: echo.name, errors: own.errors, items: own.results, example: example)
        }
    }
}
