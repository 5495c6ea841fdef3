/// A pool server that answers `/health` but not `/props`, so which model it serves is not known: the
/// pool's one-model check (`PoolModelMismatch`) cannot cover it, and the run stops before any item runs
/// (exit 69) rather than measure a model it cannot name.
package struct PoolModelUnknown: Error, Sendable, Equatable, CustomStringConvertible {
    /// `server-1`, … in `--server-url` order.
    package var label: String
    /// Its URL without user, password or query (`ServerSource.redacted`).
    package var url: String
    /// The kind of error (`PoolFailure`), e.g. `HTTP 404`; never a message's text.
    package var kind: String

    package init(label: String, url: String, kind: String) {
        self.label = label
        self.url = url
        self.kind = kind
    }

    package var description: String {
        "\(label) (\(url)) did not say which model it serves: GET /props failed (\(kind)); a pooled run checks that every server "
            + "serves one model: make /props reachable on that server or drop it from the pool"
    }
}
