import Foundation

/// A deterministic split of training lists into lists to train on and test items, for tuning the trainer
/// and recognition settings without touching any evaluation corpus.
///
/// Kinds of items, reported as separate slices: `held-out-*` words were removed from their own list
/// (so only the char LM and other languages' lists know them — the rare-word case), `known-*` words stay in
/// training (the common-word case, where list frequencies compete). Words are held out per language, so a
/// word held out of one list stays in the others — except lists of one language in two scripts (zh-Hans,
/// zh-Hant), which hold out the same words. Dictionary forms that the export added to a frequency list
/// (`WordList.addedForms`) are items of their own slices, `held-out-forms` and `known-forms`, never of the
/// word slices: they are the inflected forms the frequency list lacks, which is what the forms are for.
///
/// Items are split into two halves: settings are fitted on the tuning half (`inTuningHalf`) and reported
/// on the other. Chosen words go to the halves two by two, so each pair item and its two words share a half.
public struct HeldOutSplit: Sendable {
    /// The lists without their held-out words.
    public var training: [WordList]
    /// Test items: slices `held-out-words`, `held-out-pairs`, `known-words`, `known-pairs`, and for lists with
    /// added forms `held-out-forms`, `known-forms`.
    public var items: [LabeledText]
    /// For each item, whether it is in the tuning half.
    public var inTuningHalf: [Bool]

    /// Holds out words whose hash (mixed with the language) is divisible by `every`. Of each kind,
    /// `perLanguage` words spread evenly over the list's `rankLimit` most frequent words (all words of form
    /// lists; all added forms) become items, and consecutive pairs of them become pair items. The rank is
    /// the word's rank in the whole list, so adding rare words to a list leaves the word items unchanged.
    /// With `trainOnAddedForms` false every added form is left out of training (the items stay the same),
    /// which measures what the forms bring.
    public init(lists: [WordList], every: UInt64 = 20, perLanguage: Int = 300, rankLimit: Int = 30_000,
                trainOnAddedForms: Bool = true) {
        var training: [WordList] = []
        var items: [LabeledText] = []
        var tuning: [Bool] = []
        for list in lists {
            // Salted by the language without its script, so lists made from one source (zh-Hant is zh-Hans
            // converted) hold out the same words: a word too rare for that source is missing from both.
            let family = list.language.split(separator: "-").first.map(String.init) ?? list.language
            let salt = Hashing.word(family.unicodeScalars.map(\.value))
            var kept = list
            var pools: [String: [[UInt32]]] = [:]
            kept.words = []
            if !trainOnAddedForms { kept.addedForms = [] }
            for (rank, entry) in list.words.enumerated() {
                let isHeld = (Hashing.word(entry.word) ^ salt) % every == 0
                let isForm = list.addedForms.contains(entry.word)
                if !isHeld && (trainOnAddedForms || !isForm) { kept.words.append(entry) }
                if isForm {
                    pools[isHeld ? "held-out-forms" : "known-forms", default: []].append(entry.word)
                } else if list.kind == .forms || rank < rankLimit {
                    pools[isHeld ? "held-out-words" : "known-words", default: []].append(entry.word)
                }
            }
            training.append(kept)
            for slice in pools.keys.sorted() {
                let pool = pools[slice]!
                let step = max(1, pool.count / perLanguage)
                let chosen = stride(from: 0, to: pool.count, by: step).prefix(perLanguage).map {
                    String(String.UnicodeScalarView(pool[$0].compactMap(Unicode.Scalar.init)))
                }
                for (i, word) in chosen.enumerated() {
                    items.append(LabeledText(language: list.language, text: word, slice: slice))
                    tuning.append(i / 2 % 2 == 0)
                }
                guard slice.hasSuffix("-words") else { continue }
                let pairSlice = slice.replacingOccurrences(of: "-words", with: "-pairs")
                for i in stride(from: 0, to: chosen.count - 1, by: 2) {
                    items.append(LabeledText(language: list.language, text: chosen[i] + " " + chosen[i + 1], slice: pairSlice))
                    tuning.append(i / 2 % 2 == 0)
                }
            }
        }
        self.training = training
        self.items = items
        self.inTuningHalf = tuning
    }

    /// The items of one half.
    public func items(tuning: Bool) -> [LabeledText] {
        zip(items, inTuningHalf).filter { $0.1 == tuning }.map(\.0)
    }
}
