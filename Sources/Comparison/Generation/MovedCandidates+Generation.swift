import Generation
import Checks

extension MovedCandidates {
    /// Generation records whose yes/no `flag` differs between the runs; `good` says whether a yes is good.
    static func flagged(_ paired: [GenerationComparer.Pair], good: Bool, names: (gained: String, lost: String),
                        _ flag: (GenerationRecord) -> Bool) -> MovedCandidates {
        let sorted = paired.sorted { ($0.current.itemID, $0.current.repeatIndex) < ($1.current.itemID, $1.current.repeatIndex) }
        let moved = { (pair: GenerationComparer.Pair, change: String) in
            MovedItem(item: pair.current.itemID, repeatIndex: pair.current.repeatIndex, change: change,
                      detail: "\(Self.state(pair.base)) → \(Self.state(pair.current))")
        }
        let gained = sorted.filter { !flag($0.base) && flag($0.current) }.map { moved($0, names.gained) }
        let lost = sorted.filter { flag($0.base) && !flag($0.current) }.map { moved($0, names.lost) }
        return good ? MovedCandidates(worse: lost, better: gained) : MovedCandidates(worse: gained, better: lost)
    }

    /// `model, served` / `fallback (timeout), not served (reply in ru)`.
    static func state(_ record: GenerationRecord) -> String {
        var out = record.outcome.rawValue + (record.fallbackReason.map { " (\($0.rawValue))" } ?? "")
        switch record.servedInOwnLanguage {
        case true?: out += ", served"
        case false?: out += ", not served" + (record.notServedReason.map { " (\($0))" } ?? "")
        case nil: break
        }
        return out
    }

}
