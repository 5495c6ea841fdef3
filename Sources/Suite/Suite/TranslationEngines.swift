import Foundation
import Generation
import Backend

/// The translation engines a generation run opened, one per distinct `TranslatorSpec` other than `llm` (the reply
/// model translates through each server's own client), and how to stop them.
struct TranslationEngines: Sendable {
    var engines: [TranslatorSpec: any Translating] = [:]
    /// The engines' own pack states, read once when opened.
    private var packStates: [TranslatorSpec: LanguagePacks] = [:]
    private var apertium: [ApertiumServer] = []
    private var processes: [ExecTranslator] = []

    /// Opens every engine of `specs`: starts APy (logging into `directory`) or attaches to one, and reads its pairs.
    /// Anything opened before a failure is stopped again.
    static func open(_ specs: Set<TranslatorSpec>, directory: URL, environment: [String: String]) async throws -> TranslationEngines {
        var opened = TranslationEngines()
        do {
            for spec in specs.sorted(by: { $0.description < $1.description }) {
                switch spec {
                case .llm: continue
                case .apertium(let url):
                    let server = if let url { try await ApertiumServer.attach(to: url) } else {
                        try await ApertiumServer.launch(environment: environment, runDirectory: directory)
                    }
                    opened.apertium.append(server)
                    let translator = try await ApertiumTranslator.reading(server, name: spec.description)
                    opened.engines[spec] = translator
                    opened.packStates[spec] = translator.packs()
                case .exec(let command):
                    let translator = ExecTranslator(command: command)
                    opened.processes.append(translator)
                    opened.engines[spec] = translator
                    opened.packStates[spec] = LanguagePacks(defaultState: .installed)
                }
            }
        } catch {
            await opened.stop()
            throw error
        }
        return opened
    }

    /// The pack states a pipeline translating with `spec` checks: the engine's own for APy, every pair installed for an
    /// `exec:` translator (it says what is missing when asked), `otherwise` (the plan's simulated packs) for the model.
    func packs(_ spec: TranslatorSpec, otherwise: LanguagePacks) -> LanguagePacks {
        packStates[spec] ?? otherwise
    }

    func stop() async {
        apertium.forEach { $0.stop() }
        for process in processes { await process.shutdown() }
    }
}
