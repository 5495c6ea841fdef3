import Foundation
import LangBenchCLI
import TestSupport
import Testing

/// The committed baseline against itself: the verdict opens with what the compare can see, each figure at the level
/// the change it names would be tested at.
struct VisibilityCommandTests {
    @Test(.needs(.simulation)) func anAAOfTheBaselineSaysWhatItCanSee() async throws {
        let baseline = CommandFixtures.path("Reports/baseline")
        let result = await runCommand(["compare", baseline, baseline, "--latency", "same-runner"])
        #expect(result.status == .success, "\(result.stderr)")
        let line = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("**What this compare can see**") })
        // Detection would have 2/6 of α = 0.0167 (weights 2, 2, 1, 1); a recognizer change moving one language in the 3
        // configs makes 9 correlated checks testable (each config's language, accuracy and cost-weighted error):
        // 0.0167 / 9 = 0.00185, so ⌈log₂(540)⌉ = 10 of 45 items. (Planted in the baseline's own records at the CI job's
        // detection α of 0.025 — 9 checks, 0.0028, 9 items — 8 German items broken in every config pass and 9 go red.)
        #expect(line.contains("a 45-item language's accuracy in all 3 configs at once: 22.22 points (10 of 45 items) at the churn it saw (0 fixed, 0 broken); 1.0 points needs about "), "\(line)")
        #expect(line.contains("a 12-person language's service: "), "\(line)")
    }
}
