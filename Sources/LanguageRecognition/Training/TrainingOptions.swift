/// Settings of one training run; the defaults build the committed model.
public struct TrainingOptions: Sendable, Equatable {
    /// Exponent of the damped frequency weight (freq / min freq)^α of each list word in the char LM.
    public var frequencyDamping: Double = 0.35
    /// An n-gram of order k is kept when at least `minTypes[k-1]` list words of one language contain it.
    public var minTypes: [Int] = [1, 1, 2, 2, 3]
    /// Frequency lists contribute words at or above this frequency to the char LM (0: every word).
    public var charModelMinFrequency: Double = 0
    /// Frequency lists contribute words at or above this frequency to the word table.
    public var wordTableMinFrequency: Double = 1e-7
    /// Whether form lists (hunspell expansions) go into the word table as well as the char LM.
    public var formsInWordTable: Bool = true
    /// Total list probability shared evenly by the words of a form list.
    public var formsMass: Double = 1
    /// Recognition settings written into the model.
    public var recognition = RecognitionParameters()

    public init() {}

    /// `key=value` lines recorded in the model's metadata.
    var summary: [String] {
        ["frequencyDamping=\(frequencyDamping)", "minTypes=\(minTypes.map(String.init).joined(separator: ","))",
         "charModelMinFrequency=\(charModelMinFrequency)", "wordTableMinFrequency=\(wordTableMinFrequency)", "formsInWordTable=\(formsInWordTable)",
         "formsMass=\(formsMass)", "lambda=\(recognition.lambda)", "tokenEvidenceCap=\(recognition.tokenEvidenceCap)",
         "order=\(NGramTable.maxOrder)", "smoothing=interpolated Witten-Bell"]
    }
}
