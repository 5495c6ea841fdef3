import Support

/// Detection configs as a file lists them (`--configs FILE`, bench.json's `detection.configs`), knowing
/// which of them name their detector: a config that names none runs the run's detector (`--detector`,
/// `detection.detector`), else `builtin`.
package struct DetectionConfigList: Sendable, Decodable {
    /// The configs as written, `builtin` where no detector is named.
    package var configs: [DetectionConfig]
    /// Per config, whether it names its detector.
    package var namesDetector: [Bool]

    package init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        configs = try container.decode([DetectionConfig].self)
        namesDetector = try container.decode([DetectorKey].self).map(\.present)
    }

    /// Whether one config object has a `detector` key (the configs themselves are decoded, and checked, apart).
    private struct DetectorKey: Decodable {
        var present: Bool

        init(from decoder: Decoder) throws {
            present = try decoder.container(keyedBy: StrictJSON.AnyKey.self).contains(.init(stringValue: "detector"))
        }
    }

    /// `configs` added after the others, naming no detector (a sweep's generated configs run the run's detector).
    package init(configs: [DetectionConfig], namesDetector: [Bool]) {
        self.configs = configs
        self.namesDetector = namesDetector
    }

    package func appending(_ more: [DetectionConfig]) -> DetectionConfigList {
        DetectionConfigList(configs: configs + more, namesDetector: namesDetector + more.map { _ in false })
    }

    /// The first config that names a detector other than `detector`: a run's detector cannot apply to it.
    package func conflict(with detector: String) -> DetectionConfig? {
        zip(configs, namesDetector).first { config, named in named && config.detector != detector }?.0
    }

    /// The configs, those naming no detector given `detector`.
    package func defaulting(to detector: String) -> [DetectionConfig] {
        zip(configs, namesDetector).map { config, named in
            var config = config
            if !named { config.detector = detector }
            return config
        }
    }
}
