import Support

// Reports written before the degenerate-output rule have no `degenerate_output` in their rows. Their
// records were judged without the rule, so none of them is counted degenerate: read as 0, which is what
// rebuilding the rows from those records gives (`langbench merge` does), rather than refusing the report.

extension GenerationReport.SummaryRow {
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        route = try c.decode(Route.self, forKey: .route)
        slice = try c.decode(String.self, forKey: .slice)
        n = try c.decode(Int.self, forKey: .n)
        modelReplies = try c.decode(Int.self, forKey: .modelReplies)
        latency = try c.decodeIfPresent(LatencySummary.self, forKey: .latency)
        ttft = try c.decodeIfPresent(LatencySummary.self, forKey: .ttft)
        tpot = try c.decodeIfPresent(LatencySummary.self, forKey: .tpot)
        msPerToken = try c.decodeIfPresent(LatencySummary.self, forKey: .msPerToken)
        msPerReplyToken = try c.decodeIfPresent(LatencySummary.self, forKey: .msPerReplyToken)
        completionTokensP50 = try c.decodeIfPresent(Double.self, forKey: .completionTokensP50)
        fallbackRate = try c.decode(Double.self, forKey: .fallbackRate)
        fallbackCI = try c.decode(Statistics.Interval.self, forKey: .fallbackCI)
        fidelity = try c.decodeIfPresent(Double.self, forKey: .fidelity)
        servedRate = try c.decode(Double.self, forKey: .servedRate)
        degenerateOutput = try c.decodeIfPresent(Int.self, forKey: .degenerateOutput) ?? 0
    }
}

extension GenerationReport.ServedRow {
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        route = try c.decode(Route.self, forKey: .route)
        lang = try c.decode(String.self, forKey: .lang)
        n = try c.decode(Int.self, forKey: .n)
        served = try c.decode(Int.self, forKey: .served)
        rate = try c.decode(Double.self, forKey: .rate)
        ci = try c.decode(Statistics.Interval.self, forKey: .ci)
        misdetected = try c.decode(Int.self, forKey: .misdetected)
        wrongOutputLanguage = try c.decode(Int.self, forKey: .wrongOutputLanguage)
        degenerateOutput = try c.decodeIfPresent(Int.self, forKey: .degenerateOutput) ?? 0
        fallbacks = try c.decode([String: Int].self, forKey: .fallbacks)
        fidelity = try c.decodeIfPresent(Double.self, forKey: .fidelity)
    }
}
