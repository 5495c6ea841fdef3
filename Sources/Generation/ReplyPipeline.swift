import Support
import Detection
import Foundation
import Corpus
import Backend

/// The reply pipeline an on-device app runs for one message: detect, check support at runtime,
/// direct or pivot, check the reply's language, and fall back honestly — recording the real reason.
/// Diagnostics are buffered per item and dropped entirely for crisis-flagged messages.
package struct ReplyPipeline: Sendable {
    package var profile: ModelProfile
    package var backend: any TextCompleting
    package var translator: any Translating
    package var detector: any LanguageIdentifying
    /// Candidates and hints of the detection config (default `constrained+priors`).
    package var candidates: [LanguageCode]?
    package var hints: [LanguageCode: Double]
    package var packs: LanguagePacks
    package var crisis: CrisisCheck
    package var bank: FallbackBank
    /// Refuse direct generation in an unsupported language, as Apple's framework does.
    package var refuseUnsupported: Bool
    /// Overrides the profile's sampling seed (`--seed`).
    package var seed: Int?
    /// The cache state requests start from; the backend and translator must apply it (`CacheControlledBackend`).
    package var cachePolicy: CachePolicy
    /// Detects nothing: the message's language is the item's true one (the `oracle` config, what perfect detection buys).
    package var oracle = false
    /// Judges whether a reply is in the person's own language; `detector` unless set. One judge for every config of a
    /// run, so "served" means one thing across them.
    package var judge: (any LanguageIdentifying)?
    /// A second judge of the reply's language (`JudgeAgreement`); nil: one judge.
    package var secondJudge: (any LanguageIdentifying)?
    /// English references the translate-in output is scored against (`ChrF`), by item id.
    package var references: [String: String] = [:]

    static let english = LanguageCode(normalised: "en")

    package init(profile: ModelProfile, backend: any TextCompleting, translator: any Translating, detector: any LanguageIdentifying,
                candidates: [LanguageCode]?, hints: [LanguageCode: Double], packs: LanguagePacks, crisis: CrisisCheck,
                bank: FallbackBank, refuseUnsupported: Bool = false, seed: Int? = nil, cachePolicy: CachePolicy = .cold) {
        self.profile = profile
        // The record says which policy its requests ran under, so the pipeline's own requests always apply it.
        let applied = (backend as? CacheControlledBackend)?.policy == cachePolicy
        self.backend = applied ? backend : CacheControlledBackend(backend, policy: cachePolicy)
        self.translator = translator
        self.detector = detector
        self.candidates = candidates
        self.hints = hints
        self.packs = packs
        self.crisis = crisis
        self.bank = bank
        self.refuseUnsupported = refuseUnsupported
        self.seed = seed
        self.cachePolicy = cachePolicy
    }

    /// The message's detected language, shared by every route of an item.
    package struct Detection: Sendable {
        package var language: LanguageCode?
        package var milliseconds: Double
        package var isCrisis: Bool
    }

    /// What one route produced.
    package struct Output: Sendable {
        package var record: GenerationRecord
        package var reply: String
        /// Empty for crisis-flagged items.
        package var events: [DiagnosticEvent]

        /// The text the reply's language check judged (the model's reply, translated back on the pivot); nil when no
        /// text reached the check. Never recorded: it tells whether another config's check would agree (`sharable`).
        var checkedText: String?

        /// Marks the record and its events with the variant that produced them.
        mutating func label(variant: String?) {
            record.variant = variant
            for index in events.indices { events[index].variant = variant }
        }

        /// Marks the record and its events with the detection config that produced them (nil: the reference).
        mutating func label(config: String?) {
            record.config = config
            for index in events.indices { events[index].config = config }
        }

        /// This output as another config's, reusing its requests: the record marked shared, no diagnostics (no request was made).
        func shared(as config: String?) -> Output {
            var output = self
            output.events = []
            output.label(config: config)
            output.record.shared = true
            return output
        }

        /// Marks the record with the pool server it ran on and the one its item moved from.
        mutating func label(server: String?, reassignedFrom: String?) {
            record.server = server
            record.reassignedFrom = reassignedFrom
        }
    }

    /// What the pipeline does with an item: the language it detects (and whether the item is crisis-flagged)
    /// and the routes `choice` takes for it. Every caller that replies starts here: a unit's run, the warm-up,
    /// and resume's count of the records a unit makes.
    package struct Plan: Sendable {
        package let detection: Detection
        package let routes: [Route]
    }

    /// The plan for `item`; throws `GenerationStopped.Cause.detectorFailed` when the detector cannot answer.
    package func plan(_ item: CorpusItem, choice: RouteChoice) async throws -> Plan {
        let detection = try await detect(item)
        return Plan(detection: detection, routes: routes(for: detection, choice: choice))
    }

    /// Throws `GenerationStopped.Cause.detectorFailed` when the detector cannot answer.
    package func detect(_ item: CorpusItem) async throws -> Detection {
        if oracle { return Detection(language: item.lang, milliseconds: 0, isCrisis: crisis.isCrisis(item, detected: item.lang)) }
        let clock = ContinuousClock()
        let start = clock.now
        let language: LanguageCode?
        do { language = try await identify(item.text, candidates: candidates) } catch GenerationStopped.Cause.detectorFailed(let reason) {
            // The error goes to stderr and the resume note: never the words of a crisis message, nor any message's.
            throw GenerationStopped.Cause.detectorFailed(crisis.isCrisis(item, detected: nil) ? FailureText.crisisWithheld : FailureText.without(item.text, in: reason))
        }
        let ms = (clock.now - start).milliseconds
        return Detection(language: language, milliseconds: ms, isCrisis: crisis.isCrisis(item, detected: language))
    }

    /// The detector's best language for `text` (nil: it abstained), weighed with the config's hints
    /// unless `hints` are given. A detector that fails (cannot start, dies, hangs, answers garbage or
    /// outside the candidates) stops the run: whatever it judged would be recorded as the model's fault
    /// (a reply "detected as und").
    func identify(_ text: String, candidates: [LanguageCode]?, hints: [LanguageCode: Double]? = nil) async throws -> LanguageCode? {
        let outcome = await detector.identify(text, candidates: candidates, hints: hints ?? self.hints)
        if case .failed(let reason) = outcome { throw GenerationStopped.Cause.detectorFailed(reason) }
        return outcome.top?.lang
    }

    /// Which routes `choice` runs for this item, decided at runtime from the profile.
    package func routes(for detection: Detection, choice: RouteChoice) -> [Route] {
        choice.routes(supported: profile.supports(detection.language ?? Self.english))
    }

    /// Throws `GenerationStopped.Cause.detectorFailed` when the detector cannot judge the reply.
    package func reply(to item: CorpusItem, detection: Detection, route: Route, repeatIndex: Int, order: RouteOrder = .single) async throws -> Output {
        let untimed = UntimedWork()
        var output = try await UntimedWork.$current.withValue(untimed) {
            try await timedReply(to: item, detection: detection, route: route, repeatIndex: repeatIndex, untimed: untimed)
        }
        output.record.routeOrder = order
        output.record.cachePolicy = cachePolicy
        if !detection.isCrisis { try await judgeOwnLanguage(&output, item: item, detection: detection) }
        return output
    }

    private func timedReply(to item: CorpusItem, detection: Detection, route: Route, repeatIndex: Int, untimed: UntimedWork) async throws -> Output {
        var run = RouteRun(item: item, detection: detection, route: route, repeatIndex: repeatIndex, untimed: untimed)
        if detection.isCrisis {
            run.record.outcome = .fallback
            run.record.fallbackReason = .crisisProtocol
            run.record.totalMs = detection.milliseconds
            return Output(record: run.record, reply: bank.crisisReply(for: run.language), events: [])
        }
        run.event(stage: "detect", outcome: detection.language == nil ? "und" : "ok", ms: detection.milliseconds)
        do {
            let reply = try await route == .direct ? direct(&run) : pivot(&run)
            run.checkedText = reply
            try await checkLanguage(reply, &run)
            run.record.outcome = .model
            run.record.totalMs = run.elapsed
            let last = route == .direct ? run.record.generate : (run.record.translateOut ?? run.record.generate)
            if let ttft = run.record.ttftMs, let last {
                run.record.tpotMs = StageTiming.tpot(total: run.record.totalMs, ttft: ttft, tokens: last.completionTokens)
            }
            return Output(record: run.record, reply: reply, events: run.events, checkedText: reply)
        } catch let stopped as GenerationStopped.Cause {
            throw stopped
        } catch {
            // Every stage throws StageFailure; anything else is mapped the same way rather than lost.
            let failure = (error as? StageFailure) ?? StageFailure.from(error, translating: false)
            run.record.outcome = .fallback
            run.record.fallbackReason = failure.reason
            run.record.errorMessage = failure.message
            run.record.ttftMs = nil
            run.record.totalMs = run.elapsed
            run.event(stage: "fallback", outcome: "ok", errorType: failure.reason.rawValue, message: failure.message)
            return Output(record: run.record, reply: bank.reply(for: run.language, key: item.id), events: run.events, checkedText: run.checkedText)
        }
    }

    private func direct(_ run: inout RouteRun) async throws -> String {
        let language = run.language
        if refuseUnsupported && !profile.supports(language) {
            run.event(stage: "generate", outcome: "failed", errorType: FallbackReason.unsupportedLanguage.rawValue,
                      message: "\(language) is not in the profile's supported languages")
            throw StageFailure(reason: .unsupportedLanguage, errorType: "unsupportedLanguage",
                               message: "direct generation refused: \(language) is not supported by \(profile.name)")
        }
        run.record.history = run.item.history.isEmpty ? .none : .used
        let prompt = PromptBuilder(templates: profile.prompts).reply(language: language, message: run.item.text, history: run.item.history)
        let completion = try await generate(prompt, &run)
        run.record.ttftMs = completion.client.timeToFirstTokenMs.map { $0 + run.detection.milliseconds }
        return try nonEmpty(completion.content)
    }

    private func pivot(_ run: inout RouteRun) async throws -> String {
        let language = run.language
        // English needs no pivot: the route is the English generation alone.
        if language.isEquivalent(to: Self.english) { return try await direct(&run) }
        for (source, target, stage) in [(language, Self.english, "translate-in"), (Self.english, language, "translate-out")] {
            switch packs.state(from: source, to: target) {
            case .installed: continue
            case .supported:
                run.event(stage: stage, outcome: "skipped", errorType: FallbackReason.translationPackMissing.rawValue, message: "\(source)-\(target) pack not installed")
                throw StageFailure(reason: .translationPackMissing, errorType: "packMissing", message: "translation pack \(source)-\(target) is downloadable but not installed")
            case .unsupported:
                run.event(stage: stage, outcome: "skipped", errorType: FallbackReason.translationUnsupported.rawValue, message: "\(source)-\(target) pack does not exist")
                throw StageFailure(reason: .translationUnsupported, errorType: "packUnsupported", message: "no translation pack exists for \(source)-\(target)")
            }
        }
        let message = try await translate(run.item.text, from: language, to: Self.english, stage: "translate-in", &run)
        if let reference = references[run.item.id] {
            // Measurement, not what the app does: left out of the route's time.
            let start = ContinuousClock.now
            run.record.translateInChrF = (ChrF.sentence(message, reference: reference) * 100).rounded() / 100
            run.untimed.add((ContinuousClock.now - start).milliseconds)
        }
        var history: [Turn] = []
        if !run.item.history.isEmpty {
            let clock = ContinuousClock(), start = clock.now, untimedBefore = run.untimed.milliseconds
            do {
                for turn in run.item.history {
                    let result = try await translator.translate(turn.text, from: language, to: Self.english)
                    guard !result.text.isEmpty else { throw StageFailure(reason: .translationFailed, errorType: "emptyTranslation", message: "a history turn translated to nothing") }
                    if let completion = result.completion { run.count(completion) }
                    history.append(Turn(role: turn.role, text: result.text))
                }
                run.record.history = .used
                run.record.translateHistoryMs = (clock.now - start).milliseconds - (run.untimed.milliseconds - untimedBefore)
                run.event(stage: "translate-history", outcome: "ok", ms: run.record.translateHistoryMs)
            } catch {
                // The seed's partial failure: answer without history, and say so. Not a fallback.
                let failure = (error as? StageFailure) ?? StageFailure.from(error, translating: true, engine: translator.engine)
                history = []
                run.record.history = .dropped
                run.record.translateHistoryMs = (clock.now - start).milliseconds - (run.untimed.milliseconds - untimedBefore)
                run.event(stage: "translate-history", outcome: "dropped", errorType: failure.errorType, message: failure.message, ms: run.record.translateHistoryMs)
            }
        }
        let prompt = PromptBuilder(templates: profile.prompts).reply(language: Self.english, message: message, history: history)
        let english = try nonEmpty(try await generate(prompt, &run).content)
        let beforeOut = run.elapsed
        let reply = try await translate(english, from: Self.english, to: language, stage: "translate-out", &run)
        run.record.ttftMs = run.lastTTFT.map { $0 + beforeOut }
        return reply
    }

    private func generate(_ prompt: String, _ run: inout RouteRun) async throws -> Completion {
        let clock = ContinuousClock(), start = clock.now
        do {
            let completion = try await backend.complete(profile.sampling.request(prompt, seed: seed))
            let ms = (clock.now - start).milliseconds
            run.record.generate = StageTiming(completion)
            run.record.generateTokensPerSecond = completion.clientPredictedPerSecond ?? completion.server.flatMap { $0.predictedPerSecond > 0 ? $0.predictedPerSecond : nil }
            run.count(completion)
            run.event(stage: "generate", outcome: "ok", ms: ms, tokensIn: completion.tokensEvaluated, tokensOut: completion.tokensPredicted)
            return completion
        } catch {
            let failure = StageFailure.from(error, translating: false)
            let ms = (clock.now - start).milliseconds
            run.event(stage: "generate", outcome: "failed", errorType: failure.errorType, message: failure.message, ms: ms)
            throw failure
        }
    }

    private func translate(_ text: String, from source: LanguageCode, to target: LanguageCode, stage: String, _ run: inout RouteRun) async throws -> String {
        let clock = ContinuousClock(), start = clock.now
        do {
            let result = try await translator.translate(text, from: source, to: target)
            let ms = (clock.now - start).milliseconds
            let timing = result.completion.map(StageTiming.init) ?? StageTiming(engine: translator.engine.kind, ms: result.ms, ttftMs: result.ttftMs)
            if stage == "translate-in" { run.record.translateIn = timing } else { run.record.translateOut = timing }
            if let completion = result.completion { run.count(completion) }
            run.lastTTFT = result.ttftMs
            guard !result.text.isEmpty else {
                run.event(stage: stage, outcome: "failed", errorType: "emptyTranslation", message: "translation produced no text", ms: ms)
                throw StageFailure(reason: .translationFailed, errorType: "emptyTranslation", message: "\(source)-\(target) translation produced no text")
            }
            run.event(stage: stage, outcome: "ok", ms: ms, tokensIn: result.completion?.tokensEvaluated, tokensOut: result.completion?.tokensPredicted)
            return result.text
        } catch let failure as StageFailure {
            throw failure
        } catch {
            let failure = StageFailure.from(error, translating: true, engine: translator.engine)
            let ms = (clock.now - start).milliseconds
            run.event(stage: stage, outcome: "failed", errorType: failure.errorType, message: failure.message, ms: ms)
            throw failure
        }
    }

    private func nonEmpty(_ text: String) throws -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw StageFailure(reason: .emptyOutput, errorType: "emptyOutput", message: "the model produced no text") }
        return trimmed
    }

    /// The reply must be in the user's language: detected with the pipeline's config, the expected
    /// language added to the candidates so it can win.
    private func checkLanguage(_ reply: String, _ run: inout RouteRun) async throws {
        let expected = run.language
        let detected = try await replyLanguage(reply, expected: expected)
        run.record.replyLang = detected?.identifier ?? "und"
        let ok = detected.map { $0.isEquivalent(to: expected) } ?? false
        run.record.replyLangOK = ok
        if !ok {
            let message = "reply detected as \(detected?.identifier ?? "und"), expected \(expected)"
            run.event(stage: "check-language", outcome: "failed", errorType: FallbackReason.wrongOutputLanguage.rawValue, message: message)
            throw StageFailure(reason: .wrongOutputLanguage, errorType: "wrongOutputLanguage", message: message)
        }
        run.event(stage: "check-language", outcome: "ok")
    }
}

extension ReplyPipeline {
    /// The reply's language as the pipeline checks it: with the config's candidates, `expected` added so it can win.
    func replyLanguage(_ reply: String, expected: LanguageCode) async throws -> LanguageCode? {
        try await identify(reply, candidates: candidates.map { $0.contains(expected) ? $0 : $0 + [expected] })
    }

    /// Whether `output`, made by another config of the run for the same item, detected language and route, is this
    /// config's too: the same detected language makes the same requests, so only the reply's language check (which
    /// uses each config's candidates and priors) can differ, and it is asked again.
    func sharable(_ output: Output, detection: Detection) async throws -> Bool {
        guard output.record.detectedLang == (detection.language?.identifier ?? "und"),
              detection.isCrisis == (output.record.fallbackReason == .crisisProtocol) else { return false }
        guard let text = output.checkedText, let checked = output.record.replyLangOK else { return true }
        let expected = detection.language ?? Self.english
        return ((try await replyLanguage(text, expected: expected))?.isEquivalent(to: expected) ?? false) == checked
    }
}

/// Mutable state of one item through one route.
struct RouteRun {
    let item: CorpusItem
    let detection: ReplyPipeline.Detection
    let started = ContinuousClock.now
    let untimed: UntimedWork
    var record: GenerationRecord
    var events: [DiagnosticEvent] = []
    var lastTTFT: Double?
    var checkedText: String?

    /// The language the reply must be in: the detected one (English when detection abstained).
    var language: LanguageCode { detection.language ?? ReplyPipeline.english }

    /// Detection plus everything done so far on this route, cache priming left out.
    var elapsed: Double { detection.milliseconds + (ContinuousClock.now - started).milliseconds - untimed.milliseconds }

    init(item: CorpusItem, detection: ReplyPipeline.Detection, route: Route, repeatIndex: Int, untimed: UntimedWork = UntimedWork()) {
        self.item = item
        self.detection = detection
        self.untimed = untimed
        record = GenerationRecord(itemID: item.id, lang: item.lang, detectedLang: detection.language?.identifier ?? "und", route: route,
                                  repeatIndex: repeatIndex, routeOrder: .single, cachePolicy: .cold, outcome: .model, fallbackReason: nil,
                                  errorMessage: nil, history: .none, totalMs: 0, ttftMs: nil, tpotMs: nil, detectMs: detection.milliseconds,
                                  translateIn: nil, translateHistoryMs: nil, generate: nil, translateOut: nil, promptTokens: 0,
                                  completionTokens: 0, generateTokensPerSecond: nil, replyLang: nil, replyLangOK: nil,
                                  servedInOwnLanguage: nil, notServedReason: nil)
    }

    mutating func count(_ completion: Completion) {
        // One unknown count makes the sum unknown: never a partial sum that looks complete.
        record.promptTokens = record.promptTokens.flatMap { sum in completion.tokensEvaluated.map { sum + $0 } }
        record.completionTokens = record.completionTokens.flatMap { sum in completion.tokensPredicted.map { sum + $0 } }
        if completion.ignoredStop { record.ignoredStop = true }
        if completion.secretRedacted { record.secretRedacted = true }
        if completion.invalidCounts { record.invalidCounts = true }
    }

    mutating func event(stage: String, outcome: String, errorType: String? = nil, message: String? = nil, ms: Double? = nil,
                        tokensIn: Int? = nil, tokensOut: Int? = nil) {
        events.append(DiagnosticEvent(itemID: item.id, lang: item.lang.identifier, detectedLang: detection.language?.identifier,
                                      route: record.route, stage: stage, outcome: outcome, errorType: errorType, errorMessage: message,
                                      durationMs: ms.map { ($0 * 10).rounded() / 10 }, tokensIn: tokensIn, tokensOut: tokensOut))
    }
}
