/// A pool whose servers serve different models (by `/props` alias or model file name): its items would be
/// measured on different models under one run, so it is refused before any item runs (exit 65).
package struct PoolModelMismatch: Error, Sendable, Equatable, CustomStringConvertible {
    /// Each answering server's label and the model it serves, in `--server-url` order.
    package var models: [(label: String, model: String)]

    package init(models: [(label: String, model: String)]) {
        self.models = models
    }

    package static func == (a: Self, b: Self) -> Bool { a.models.map { [$0.label, $0.model] } == b.models.map { [$0.label, $0.model] } }

    /// Nil when every server serves the first one's model.
    package static func check(_ models: [(label: String, model: String)]) -> PoolModelMismatch? {
        Set(models.map(\.model)).count > 1 ? PoolModelMismatch(models: models) : nil
    }

    package var description: String {
        "the pool's servers serve different models: " + models.map { "\($0.label) serves '\($0.model)'" }.joined(separator: ", ")
            + "; a pooled run measures one model: start every server with the same model file (and the same --alias, if any)"
    }
}
