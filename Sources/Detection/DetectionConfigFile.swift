import Support

/// The `--configs FILE` shape: `{"configs":[…]}` (optionally with `"schema_version": 1`).
package struct DetectionConfigFile: Sendable, Decodable {
    package var list: DetectionConfigList
    /// The configs as written, `builtin` where no detector is named.
    package var configs: [DetectionConfig] { list.configs }

    private enum CodingKeys: String, CodingKey {
        case configs, sweep
        case schemaVersion = "schema_version"
    }

    package init(from decoder: Decoder) throws {
        try StrictJSON.rejectUnknownKeys(in: decoder, allowed: ["configs", "schema_version", "sweep"])
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let version = try container.decodeIfPresent(Int.self, forKey: .schemaVersion) ?? 1
        try StrictJSON.checkSchemaVersion(version)
        list = try container.decode(DetectionConfigList.self, forKey: .configs)
        if let sweep = try container.decodeIfPresent(DetectionSweep.self, forKey: .sweep) {
            list = list.appending(sweep.configs(detector: DetectorKind.builtin.spec))
        }
        let names = configs.map(\.name)
        if let duplicate = names.first(where: { name in names.filter { $0 == name }.count > 1 }) {
            throw DecodingError.dataCorruptedError(forKey: .configs, in: container, debugDescription: "config name '\(duplicate)' is used twice")
        }
        if configs.isEmpty {
            throw DecodingError.dataCorruptedError(forKey: .configs, in: container, debugDescription: "no configs")
        }
    }

    package static func load(_ path: String) throws -> DetectionConfigList {
        try StrictJSON.load(DetectionConfigFile.self, from: path).list
    }
}
