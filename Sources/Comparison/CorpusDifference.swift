import Corpus

/// How two detection runs' corpora differ. A file with the same content (SHA-256) is the same corpus wherever it lies. A file
/// both runs read under one path but with other content is another item list: a mismatch naming it, its item counts and the
/// packages that changed when set-up built it. A corpus only one run read (the outside corpus on one side) is a change: its
/// items have no partner and every paired check is over the items both runs hold. Runs that read no corpus in common
/// differ in corpora: a mismatch.
enum CorpusDifference {
    static func between(_ base: [CorpusSource], _ current: [CorpusSource]) -> (mismatches: [String], changes: [String]) {
        let shared = Set(base.map(\.sha256)).intersection(current.map(\.sha256))
        let (a, b) = (base.filter { !shared.contains($0.sha256) }, current.filter { !shared.contains($0.sha256) })
        var mismatches: [String] = [], changes: [String] = []
        // Nothing read in common: other corpora, not one with a corpus added.
        if shared.isEmpty && !base.isEmpty && !current.isEmpty && !a.contains(where: { old in b.contains { $0.path == old.path } }) {
            return (["detection corpora differ (\(base.map(\.path)) vs \(current.map(\.path)), compared by SHA-256)"], [])
        }
        for old in a {
            guard let new = b.first(where: { $0.path == old.path }) else {
                changes.append("detection corpus \(old.path) (\(old.items) items) is in base only: its items are not compared")
                continue
            }
            var text = "detection corpus \(old.path) changed: \(old.items) items (SHA-256 \(old.sha256.prefix(12))) → \(new.items) items "
                + "(SHA-256 \(new.sha256.prefix(12)))"
            let packages = packageChanges(old.packages ?? [], new.packages ?? [])
            if !packages.isEmpty { text += "; packages: " + packages.joined(separator: ", ") }
            mismatches.append(text)
        }
        for new in b where !a.contains(where: { $0.path == new.path }) {
            changes.append("detection corpus \(new.path) (\(new.items) items) is in current only: its items are not compared")
        }
        return (mismatches, changes)
    }

    /// `firefox-esr-l10n-ru 153.8.0esr → 153.9.0esr`, `+name version`, `−name version`.
    static func packageChanges(_ base: [SourcePackage], _ current: [SourcePackage]) -> [String] {
        let old = Dictionary(base.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let new = Dictionary(current.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var out: [String] = []
        for name in Set(old.keys).union(new.keys).sorted() {
            switch (old[name], new[name]) {
            case let (x?, y?) where x != y: out.append(x.version == y.version ? "\(name) \(x.version) rebuilt (another SHA-256)" : "\(name) \(x.version) → \(y.version)")
            case let (x?, nil): out.append("−\(name) \(x.version)")
            case let (nil, y?): out.append("+\(name) \(y.version)")
            default: break
            }
        }
        return out
    }
}
