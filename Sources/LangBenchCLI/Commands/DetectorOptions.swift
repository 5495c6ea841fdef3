import Support
import Detection
import Foundation
import Generation
import Corpus
import Suite

/// Options that choose detection configs and detectors.
struct DetectorOptions {
    static let group = OptionGroup("Detection", [
        .value("configs", "file", help: "JSON file of detection configs: {\"configs\":[{\"name\",\"detector\",\"candidates\",\"hints\"}]}."),
        .value("detector", "name", help: "Detector of every config that names none (the defaults, the flags', those in --configs without \"detector\"): "
               + "builtin, exec:<command>.", default: DetectorKind.builtin.spec),
        .value("candidates", "spec", help: "Candidate languages: a list (ru,uk,bg) or an expression (profile:supported + ru + device:en,uk)."),
        .value("hints", "weights", help: "Prior weights, e.g. ru=0.5,en=0.35."),
        .value("profile", "file", help: "Model profile whose supported languages 'profile:supported' means.",
               computedDefault: "LangBench's \(ModelProfile.defaultResource)"),
    ] + DetectorFactoryOptions.options)

    var configsPath: String?
    var detector: String
    /// Whether `--detector` was given: only then can it conflict with a config that names another.
    var detectorGiven: Bool
    /// The command, for usage errors found once the configs file is read.
    var command: String
    var candidates: String?
    var hints: String?
    var profilePath: String
    var detectors: DetectorFactoryOptions

    init(_ arguments: ParsedArguments) throws {
        configsPath = arguments.value("configs")
        // Outputs show the spec with its URLs' credentials redacted; the factory runs the spec as given.
        detector = Redaction.label(ofCommand: try arguments.string("detector"))
        detectorGiven = arguments.isGiven("detector")
        command = arguments.command
        candidates = arguments.value("candidates")
        hints = arguments.value("hints")
        profilePath = arguments.value("profile") ?? ModelProfile.defaultPath
        detectors = try DetectorFactoryOptions(arguments)
    }

    func validate(command: String) throws {
        if configsPath != nil && (candidates != nil || hints != nil) {
            throw UsageError("--configs cannot be combined with --candidates or --hints", command: command)
        }
        // An empty list would silently mean "unconstrained", the opposite of a constraint.
        if let candidates, candidates.split(separator: ",").allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) {
            throw UsageError("--candidates '\(candidates)' names no language; leave --candidates out for unconstrained detection", command: command)
        }
        if let hints, hints.trimmingCharacters(in: .whitespaces).isEmpty {
            throw UsageError("--hints '' names no weight; leave --hints out for none", command: command)
        }
        // Malformed candidates, repeated or useless hints are mistakes in the flags (64), found before any work.
        if configsPath == nil, candidates != nil || hints != nil {
            do {
                let config = try flagConfig()
                _ = try config.resolvedCandidates(supported: config.candidates.usesProfile ? ModelProfile.load(profilePath).supportedLanguages : [])
            } catch let error as ConfigurationError {
                guard case .invalidValue = error else { throw error }  // the profile file's own problem stays a file error
                throw UsageError("--\(error)", command: command)
            }
        }
        try detectors.validate(command: command)
    }

    /// Configs from the file (`--detector` for those that name none), from flags (one config), or the
    /// three defaults. A file config naming another detector than a given `--detector` is a usage error.
    func configs() throws -> [DetectionConfig] {
        if let configsPath {
            let list = try DetectionConfigFile.load(configsPath)
            if detectorGiven, let other = list.conflict(with: detector) {
                throw UsageError("--detector \(detector) conflicts with config '\(other.name)' in \(configsPath), which names detector \(other.detector); "
                                 + "drop one (--detector is the detector of configs that name none)", command: command)
            }
            return list.defaulting(to: detector)
        }
        if candidates != nil || hints != nil { return [try flagConfig()] }
        return DetectionConfig.defaults(detector: detector)
    }

    /// The one config `--candidates` and `--hints` describe.
    private func flagConfig() throws -> DetectionConfig {
        var spec = CandidateSpec.none
        if let candidates {
            spec = candidates.contains(":") || candidates.contains("+") ? .expression(candidates) : .list(try Self.codes(candidates))
        }
        return DetectionConfig(name: "custom", detector: detector, candidates: spec, hints: try hints.map(Self.parseHints) ?? [:])
    }

    /// The configs the reply pipeline detects with, the reference (whose records make every figure) first: the
    /// file's, in its order, or the flags' one, else the seed architecture's (constrained+priors); `oracle` adds the
    /// config that takes the item's true language (`ServedFunnel`).
    func pipelineConfigs(oracle: Bool) throws -> [DetectionConfig] {
        let configs = configsPath != nil || candidates != nil || hints != nil ? try configs() : [DetectionConfig.seedArchitecture(detector: detector)]
        return configs + (oracle ? [GenerationSetup.oracleConfig] : [])
    }

    var factory: DetectorFactory { detectors.factory }

    /// `--hints`, whose mistakes are usage errors (64) like every other flag's.
    static func parseHints(_ text: String) throws -> [LanguageCode: Double] {
        do {
            return try DetectionConfig.parseHints(text)
        } catch let error as ConfigurationError {
            throw UsageError("--\(error)", command: "")
        }
    }

    static func codes(_ list: String) throws -> [LanguageCode] {
        try list.split(separator: ",").map { (raw: Substring) throws -> LanguageCode in
            do { return try LanguageCode(String(raw).trimmingCharacters(in: .whitespaces)) } catch {
                throw ConfigurationError.invalidValue(name: "candidates", value: list, reason: "\(error)")
            }
        }
    }
}

/// The detectors' own options — the built-in recognizer's model file and the exec: timeout — for every
/// command that detects, including `run`, whose suite config names the configs.
struct DetectorFactoryOptions {
    static let options: [OptionSpec] = [
        .value("recognizer-model", "file", help: "Built-in recognizer model file.", computedDefault: RecognizerModelOption.bundled),
        .value("timeout", "seconds", help: "Per-item timeout for exec: detectors.", default: OptionSpec.number(DetectorFactory().timeout.seconds)),
    ]

    var recognizerModel: String?
    var timeout: Double

    init(_ arguments: ParsedArguments) throws {
        recognizerModel = arguments.value("recognizer-model")
        timeout = try arguments.seconds("timeout")
    }

    func validate(command: String) throws {}

    var factory: DetectorFactory {
        DetectorFactory(timeout: .milliseconds(Int(timeout * 1000)), recognizerModel: recognizerModel)
    }
}
