/// A deterministic split of training lists into lists to train on and test items, for tuning the trainer
/// and recognition settings without touching any evaluation corpus.
///
/// Two kinds of items, reported as separate slices: `held-out-*` words were removed from their own list
/// (so only the char LM and other languages' lists know them — the rare-word case), `known-*` words stay in
/// training (the common-word case, where list frequencies compete). Words are held out per language, so a
/// word held out of one list stays in the others.
public struct HeldOutSplit: Sendable {
    /// The lists without their held-out words.
    public var training: [WordList]
    /// Test items: slices `held-out-words`, `held-out-pairs`, `known-words`, `known-pairs`.
    public var items: [LabeledText]

    /// Holds out words whose hash (mixed with the language) is divisible by `every`. Of each kind,
    /// `perLanguage` words spread evenly over the list's `rankLimit` most frequent words (all words of form
    /// lists) become items, and consecutive pairs of them become pair items. The rank is the word's rank in
    /// the whole list, so adding rare words to a list (e.g. dictionary forms) leaves the items unchanged.
    public init(lists: [WordList], every: UInt64 = 20, perLanguage: Int = 300, rankLimit: Int = 30_000) {
        var training: [WordList] = []
        var items: [LabeledText] = []
        for list in lists {
            let salt = Hashing.word(list.language.unicodeScalars.map(\.value))
            var kept = list
            var held: [[UInt32]] = [], known: [[UInt32]] = []
            kept.words = []
            for (rank, entry) in list.words.enumerated() {
                let isHeld = (Hashing.word(entry.word) ^ salt) % every == 0
                if !isHeld { kept.words.append(entry) }
                if list.kind == .forms || rank < rankLimit {
                    if isHeld { held.append(entry.word) } else { known.append(entry.word) }
                }
            }
            training.append(kept)
            for (kind, pool) in [("held-out", held), ("known", known)] {
                guard !pool.isEmpty else { continue }
                let step = max(1, pool.count / perLanguage)
                let chosen = stride(from: 0, to: pool.count, by: step).prefix(perLanguage).map {
                    String(String.UnicodeScalarView(pool[$0].compactMap(Unicode.Scalar.init)))
                }
                items += chosen.map { LabeledText(language: list.language, text: $0, slice: "\(kind)-words") }
                for i in stride(from: 0, to: chosen.count - 1, by: 2) {
                    items.append(LabeledText(language: list.language, text: chosen[i] + " " + chosen[i + 1],
                                             slice: "\(kind)-pairs"))
                }
            }
        }
        self.training = training
        self.items = items
    }
}
