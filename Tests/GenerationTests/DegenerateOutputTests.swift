@testable import Generation
import Testing

/// What counts as degenerate output: a loop, never a short or ordinary reply.
struct DegenerateOutputTests {
    @Test(arguments: [
        "Да!", "Да, да, да!", "Ок.", "Hi!", "Ja.", "はい。", "好的！", "谢谢", "네!", "Хаха", "Ааа!", "Zzz…", "!!!",
        "Здравей! Как мина денят ти? Аз току-що се прибрах.",
        "Привет! Да, да, конечно, я помню, да, да.",
        "Yes, it's a great feeling to feel like you are doing good things.",
        "Ich bin sehr, sehr, sehr müde heute.",
        "Très bien, merci ! Et toi, ça va ?",
        "今日はとても良い天気ですね。散歩に行きましょう。",
        "你好！我很好，你呢？今天天气很好。",
        "오늘 정말 좋은 하루였어요. 고마워요!",
        "Νομίζω ότι αυτό είναι καλή ιδέα.",
        "Ына жақсы.",
        "Коя е любимата ти песен? Моята е „Стари мой приятелю“.",
    ])
    func aNormalReplyIsNotDegenerate(reply: String) {
        #expect(!DegenerateOutput.isDegenerate(reply))
    }

    @Test(arguments: [
        "Ти, ти, ти, ти, ти, ти",
        "Ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти, ти,",
        "I am fine. I am fine. I am fine. I am fine. I am fine.",
        "Я тебя люблю, я тебя люблю, я тебя люблю, я тебя люблю, я тебя люблю",
        "Хорошо. Я рад, рад, рад, рад, рад, рад, рад, рад",
        "ааааааааааааааааааааааа",
        "!!!!!!!!!!!!!!!!",
        "好的好的好的好的好的好的",
        "ありがとうありがとうありがとうありがとう",
    ])
    func aLoopIsDegenerate(reply: String) {
        #expect(DegenerateOutput.isDegenerate(reply))
    }

    /// The parameters' edges: one unit short of each threshold, then at it.
    @Test(arguments: [
        ("Ти, ти, ти, ти, ти", false), ("Ти, ти, ти, ти, ти, ти", true),  // minUnits: 6 words
        ("I am fine. I am fine. I am fine.", false), ("I am fine. I am fine. I am fine. I am fine.", true),  // minRepeats: 4
        ("Okay. I think that is fine, really. Ok ok ok ok", false), ("Okay, fine then. Ok ok ok ok ok ok", true),  // minCoverage: half
        ("ааааааа", false), ("аааааааааа", true),  // characters: 10 units, 8 repeats
    ])
    func theThresholdsHoldAtTheirEdges(reply: String, degenerate: Bool) {
        #expect(DegenerateOutput.isDegenerate(reply) == degenerate)
    }
}
