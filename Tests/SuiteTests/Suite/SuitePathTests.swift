import Support
import Foundation
import Generation
import Suite
import TestSupport
import Testing

/// Paths inside every kind of suite file are read from that file's directory, whatever the working directory.
struct SuitePathTests {
    let directory: URL
    let home = ProcessInfo.processInfo.environment["HOME"] ?? NSHomeDirectory()

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("langbench-suite-paths-\(UUID().uuidString)/suite")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    @Test func benchJSONPathsAreRelativeToIt() throws {
        let file = try write("bench.json", """
            {"detection": {"corpora": ["corpora/words.tsv", "/data/more.tsv"]},
             "generation": {"corpora": ["../shared/chat.tsv"], "profile": "~/profiles/app.json", "variants": "variants.json"}}
            """)
        let config = try BenchConfig.load(file)
        #expect(config.detection?.corpora == [directory.path + "/corpora/words.tsv", "/data/more.tsv"])
        #expect(config.generation?.corpora == [directory.path + "/../shared/chat.tsv"])
        #expect(config.generation?.profile == home + "/profiles/app.json")
        #expect(config.generation?.variants == directory.path + "/variants.json")
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }

    @Test func aSuiteWithoutAProfileUsesTheToolsOwn() throws {
        let file = try write("bench.json", #"{"generation": {"corpora": ["chat.tsv"]}}"#)
        let profile = try #require(try BenchConfig.load(file).generation?.profile)
        #expect(profile == ToolResources.path(ModelProfile.defaultResource))
        #expect(profile.hasPrefix("/") && FileManager.default.fileExists(atPath: profile))
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }

    @Test func profileAndVariantPathsAreRelativeToTheirFiles() throws {
        var profile = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ToolResources.path(ModelProfile.defaultResource)))) as! [String: Any]
        var model = profile["model"] as! [String: Any]
        model["file"] = "models/app.gguf"
        profile["model"] = model
        let profilePath = directory.appendingPathComponent("profiles/app.json")
        try FileManager.default.createDirectory(at: profilePath.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: profile).write(to: profilePath)
        // A profile's model path: relative to the profile.
        let loaded = try ModelProfile.load(profilePath.path)
        #expect(loaded.model.file == directory.path + "/profiles/models/app.gguf")

        // A variants file's `profile` and `model.file`: relative to the variants file; a bare model file name stays a name.
        let variants = try write("variants.json", """
            {"variants": [{"name": "other", "profile": "profiles/app.json"},
                          {"name": "moved", "model": {"file": "~/models/m.gguf"}},
                          {"name": "cached", "model": {"file": "m.gguf"}}]}
            """)
        var asked: [String] = []
        let set = try VariantSet.load(variants, base: loaded) { path in asked.append(path); return try ModelProfile.load(path) }
        #expect(asked == [profilePath.path])
        #expect(set.map(\.profile.model.file) == [directory.path + "/profiles/models/app.gguf", home + "/models/m.gguf", "m.gguf"])
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }
}
