/// Configs whose detector failed most items: their accuracy measures the failure, not the detector.
extension DetectionReport {
    /// One config where more than half the items ended in a detector error.
    public struct FailedConfig: Sendable, Equatable {
        public var config: String
        public var errors: Int
        public var items: Int
        /// The first error, to say what went wrong.
        public var example: String

        public var sentence: String {
            "config `\(config)`: \(errors) of \(items) items failed in the detector (e.g. \(example)); its accuracy is not a measurement"
        }
    }

    public var failedConfigs: [FailedConfig] {
        configs.compactMap { config in
            let results = self.results.filter { $0.config == config.name }
            let failed = results.filter { $0.error != nil }
            guard !results.isEmpty, failed.count * 2 > results.count, let example = failed.first?.error else { return nil }
            return FailedConfig(config: config.name, errors: failed.count, items: results.count, example: example)
        }
    }
}
