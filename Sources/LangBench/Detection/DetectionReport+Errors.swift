import BenchSupport
/// Configs whose detector failed most items: their accuracy measures the failure, not the detector.
extension DetectionReport {
    /// One config where more than half the items ended in a detector error.
    public struct FailedConfig: Sendable, Hashable {
        public var config: String
        public var errors: Int
        public var items: Int
        /// The first error, to say what went wrong.
        public var example: String

        public var sentence: String {
            "config '\(config)': \(errors) of \(items) items failed in the detector (e.g. \(example)); its accuracy is not a measurement"
        }

        /// The sentence for detection.md: the config name and the detector's error are data.
        var markdownSentence: String {
            "config \(ReportText.code(config)): \(errors) of \(items) items failed in the detector (e.g. \(ReportText.markdown(example))); "
                + "its accuracy is not a measurement"
        }
    }

    /// The configs of a run's tally whose detector failed more than half of their items.
    static func failedConfigs(_ tally: DetectionTally) -> [FailedConfig] {
        zip(tally.echoes, tally.configs).compactMap { echo, own in
            guard own.results > 0, own.errors * 2 > own.results, let example = own.firstError else { return nil }
            return FailedConfig(config: echo.name, errors: own.errors, items: own.results, example: example)
        }
    }
}
