/// Settings of one training run; the defaults build the committed model.
public struct TrainingOptions: Sendable, Equatable {
    /// Exponent of the damped frequency weight (freq / min freq)^α of each list word in the char LM.
    public var frequencyDamping: Double = 0.35
    /// An n-gram of order k is kept when at least `minTypes[k-1]` list words of one language contain it.
    public var minTypes: [Int] = [1, 2, 2, 4, 6]
    /// Frequency lists contribute words at or above this frequency to the char LM (0: every word).
    public var charModelMinFrequency: Double = 0
    /// Weight in the char LM of a dictionary form added to a frequency list, relative to a list word at the
    /// same frequency (the added forms outnumber sr's listed words six to one).
    public var addedFormCharWeight: Double = 0.25
    /// Frequency lists contribute words at or above this frequency to the word table.
    public var wordTableMinFrequency: Double = 1e-6
    /// Frequency-list words at the word table's floor level (`wordTableMinFrequency`: the dictionary forms
    /// added to sr and the rarest listed words) are stored as a compact fingerprint set when a
    /// list has at least this many (2.5 bytes a word instead of 5, for one more probe per word looked up).
    public var compactFloorLevelMinimum: Int = 50_000
    /// Whether form lists (hunspell expansions) go into the word table as well as the char LM.
    public var formsInWordTable: Bool = true
    /// Total list probability shared evenly by the words of a form list (the floor of each form).
    public var formsMass: Double = 1
    /// A form that also appears in frequency lists of the same script gets the largest of those frequencies
    /// (our proxy: form lists have no frequencies, and without one every common word — ты, не, на, у —
    /// would count heavily against the language).
    public var borrowFormFrequencies: Bool = true
    /// Factor on a borrowed frequency (below 1, a word shared with a frequency list leans to that list's
    /// language, whose frequency was measured).
    public var borrowedFrequencyFactor: Double = 0.5
    /// Keep only the forms that borrowed a frequency (the rest are left to the char LM, which is trained
    /// on every form), which keeps the word table small.
    public var formsOnlyWhenBorrowed: Bool = false
    /// Recognition settings written into the model.
    public var recognition = RecognitionParameters(lambda: 0.99, tokenEvidenceCap: 24)

    public init() {}

    /// `key=value` lines recorded in the model's metadata.
    var summary: [String] {
        ["frequencyDamping=\(frequencyDamping)", "minTypes=\(minTypes.map(String.init).joined(separator: ","))",
         "charModelMinFrequency=\(charModelMinFrequency)", "addedFormCharWeight=\(addedFormCharWeight)", "wordTableMinFrequency=\(wordTableMinFrequency)", "compactFloorLevelMinimum=\(compactFloorLevelMinimum)", "formsInWordTable=\(formsInWordTable)",
         "formsMass=\(formsMass)", "borrowFormFrequencies=\(borrowFormFrequencies)", "borrowedFrequencyFactor=\(borrowedFrequencyFactor)", "formsOnlyWhenBorrowed=\(formsOnlyWhenBorrowed)", "lambda=\(recognition.lambda)", "tokenEvidenceCap=\(recognition.tokenEvidenceCap)",
         "order=\(NGramTable.maxOrder)", "smoothing=interpolated Witten-Bell"]
    }
}
