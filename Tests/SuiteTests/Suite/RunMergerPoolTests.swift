import Foundation
import GenerationTestSupport
@testable import Suite
@testable import Provenance
import Testing

/// `merge` of shards run on pools keeps `provenance.servers`: every server once by label, its parts'
/// calibration samples together, failed when it failed in any part.
struct RunMergerPoolTests {
    static func provenance(_ servers: [PoolServer]?) -> Provenance {
        var provenance = Provenance(command: ["test"], corpora: [], gitCommit: nil)
        provenance.servers = servers
        return provenance
    }

    @Test func serversAreTheUnionByLabel() {
        let a = GenerationFixtures.calibration(ms: 700), b = GenerationFixtures.calibration(ms: 720)
        let first = Self.provenance([PoolServer(label: "server-1", url: "http://10.0.0.5:8080", calibration: a),
                                     PoolServer(label: "server-2", url: "http://10.0.0.6:8080", calibration: a, failed: true, unitsMoved: 2,
                                                failure: "run: stopped answering /health")])
        let second = Self.provenance([PoolServer(label: "server-2", url: "http://10.0.0.6:8080", calibration: b, unitsMoved: 1),
                                      PoolServer(label: "server-3", url: "http://10.0.0.7:8080", calibration: nil)])
        let merged = RunMerger.mergedProvenance([first, second, Self.provenance(nil)], command: ["merge"])
        let servers = merged.servers ?? []
        #expect(servers.map(\.label) == ["server-1", "server-2", "server-3"])
        #expect(servers[1].failed && servers[1].unitsMoved == 3 && servers[1].calibration?.samples.count == a.samples.count + b.samples.count)
        #expect(servers[1].failure == "run: stopped answering /health" && servers[0].failure == nil)
        #expect(servers[0].calibration == a && servers[2].calibration == nil)
    }

    @Test func shardsOnOneServerHaveNoServers() {
        #expect(RunMerger.mergedProvenance([Self.provenance(nil), Self.provenance(nil)], command: ["merge"]).servers == nil)
    }
}
