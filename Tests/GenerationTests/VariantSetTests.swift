import Foundation
@testable import Generation
import GenerationTestSupport
@testable import Corpus
import TestSupport
import Testing

struct VariantSetTests {
    let base: ModelProfile

    init() throws {
        base = try PipelineFixture.profile()
    }
    static let shipped = PipelineFixture.repository.appendingPathComponent("Profiles/variants/gemma3-270m.json").path

    @Test func shippedVariantsApplyTheirOverrides() throws {
        let variants = try VariantSet.load(Self.shipped, base: base)
        #expect(variants.map(\.name) == ["english-instructions", "native", "native-preamble"])
        let russian = LanguageCode(normalised: "ru")
        let english = PromptBuilder(templates: variants[0].profile.prompts).reply(language: russian, message: "Привет", history: [])
        #expect(english.hasPrefix("The person's locale is ru-RU.\nYou MUST respond in Russian.\nYou are a kind companion"))
        #expect(english.hasSuffix("User: Привет\nCompanion:"))
        #expect(variants[1].profile == base)
        let preamble = PromptBuilder(templates: variants[2].profile.prompts).reply(language: russian, message: "Привет", history: [])
        #expect(preamble.hasPrefix("Локаль собеседника: ru-RU.\nТы ДОЛЖЕН отвечать на русском языке.\nТы добрый собеседник"))
        #expect(variants.allSatisfy { $0.serverKey == variants[0].serverKey })
    }

    @Test func withoutAFileTheRunIsOneVariantNamedAfterTheProfile() {
        #expect(VariantSet.single(base).map(\.name) == [base.name])
    }

    @Test func aVariantNamesItsTranslatorAndItsFingerprintSaysSo() throws {
        let json = #"{"variants": [{"name": "model"}, {"name": "engine", "translator": "apertium"}]}"#
        let variants = try VariantSet.parse(Data(json.utf8), path: "v.json", base: base)
        #expect(variants.map(\.translator) == [nil, .apertium(nil)])
        #expect(variants[0].profile == variants[1].profile)
        let fingerprints = try variants.map { try GenerationReport.Settings.Variant($0, serverIndex: 1).fingerprint }
        #expect(fingerprints[0] != fingerprints[1])
    }

    @Test func samplingOverridesMergeFieldByField() throws {
        let json = #"{"variants": [{"name": "short", "sampling": {"n_predict": 12}}]}"#
        let variant = try #require(try VariantSet.parse(Data(json.utf8), path: "v.json", base: base).first)
        #expect(variant.profile.sampling.nPredict == 12)
        #expect(variant.profile.sampling.temperature == base.sampling.temperature)
        #expect(variant.profile.translationSampling == base.translationSampling)
    }

    @Test(arguments: [
        (#"{"variants": [{"name": "a"}], "extra": 1}"#, "v.json: extra: unknown key; allowed: schema_version, variants"),
        (#"{"schema_version": 2, "variants": [{"name": "a"}]}"#, "v.json: schema_version: 2 is not supported (this LangBench reads 1)"),
        (#"{"variants": []}"#, "v.json: variants: expected a non-empty list of objects"),
        (#"{"variants": [{"name": "a", "promts": {}}]}"#,
         "v.json: variants[0].promts: unknown key; allowed: name, description, profile, model, server, sampling, translation_sampling, prompts, translator"),
        (#"{"variants": [{"name": "a", "translator": "deepl"}]}"#,
         "v.json: variants[0].translator: must be llm, apertium, apertium:<url> or exec:<command>"),
        (#"{"variants": [{"name": "a", "translator": 3}]}"#,
         "v.json: variants[0].translator: expected llm, apertium, apertium:<url> or exec:<command>"),
        (#"{"variants": [{"name": "a"}, {"name": "a"}]}"#, "v.json: variants[1].name: 'a' is used twice"),
        (#"{"variants": [{"description": "x"}]}"#, "v.json: variants[0].name: every variant needs a non-empty name"),
        (#"{"variants": [{"name": "a", "sampling": {"n_predit": 3}}]}"#,
         "v.json: variants[0].sampling.n_predit: unknown key; allowed here: cache_prompt, ignore_eos, min_p, n_predict, seed, stop, temperature, top_k, top_p"),
        (#"{"variants": [{"name": "a", "prompts": {"instructions": {"xx1": "Hi"}}}]}"#,
         "v.json: variants[0].prompts.instructions.xx1: 'xx1' is not a language code (unknown language code 'xx1' (use an ISO 639 code such as 'ru', 'uk' or 'zh-Hans'))"),
        (#"{"variants": [{"name": "a", "prompts": {"translation_examples": {"ruen": []}}}]}"#,
         "v.json: variants[0].prompts.translation_examples.ruen: expected a language pair such as 'ru-en'"),
        (#"{"variants": [{"name": "a", "sampling": {"seed": null}}]}"#,
         "v.json: variants[0].sampling.seed: null only removes an entry of a per-language table"),
        (#"{"variants": [{"name": "a", "sampling": {"n_predict": "many"}}]}"#,
         #"v.json: variants[0].sampling.n_predict: expected an integer, found "many""#),
    ])
    func badFilesNameTheKey(json: String, message: String) {
        #expect {
            _ = try VariantSet.parse(Data(json.utf8), path: "v.json", base: base)
        } throws: { error in
            "\(error)" == message
        }
    }

    @Test func anotherProfileIsLoadedThroughTheGivenReader() throws {
        var other = base
        other.name = "other"
        other.server.threads = 1
        let json = #"{"variants": [{"name": "base"}, {"name": "one-thread", "profile": "other.json"}]}"#
        let variants = try VariantSet.parse(Data(json.utf8), path: "v.json", base: base) { path in
            #expect(path == "other.json")
            return other
        }
        #expect(variants[1].profile.name == "other")
        #expect(variants[0].serverKey != variants[1].serverKey)
    }
}
